import { describe, expect, it } from "vitest";
import { createLogger, flushLog, logRequest } from "../../server/observability/logger.ts";

function capture(options?: { requestBatchChars?: number }) {
  const writes: string[] = [];
  const logger = createLogger("info", { write: (text: string) => void writes.push(text) }, options);
  const lines = () =>
    writes
      .join("")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, writes, lines };
}

describe("request log lines", () => {
  it("have the form and the fields of the line pino writes for the same request", () => {
    const fields = {
      requestId: "0b0f3f0e-6d0a-4d59-9a5b-6f8b5c3f2a11",
      route: "public.weather.current",
      status: 200,
      durationMs: 0.042,
      cache: "hit",
    };
    const template = capture();
    logRequest(template.logger, fields);
    const generic = capture();
    generic.logger.info(fields, "request");
    const [ours] = template.lines();
    const [pinos] = generic.lines();
    expect(Object.keys(ours!)).toEqual(Object.keys(pinos!));
    expect({ ...ours, time: null }).toEqual({ ...pinos, time: null });
    expect(Date.parse(String(ours!.time))).not.toBeNaN();
  });

  it("leave out the cache field when the answer was not looked up in a cache", () => {
    const { logger, lines } = capture();
    logRequest(logger, {
      requestId: "0b0f3f0e-6d0a-4d59-9a5b-6f8b5c3f2a11",
      route: "unmatched",
      status: 404,
      durationMs: 0.01,
    });
    expect(lines()[0]).not.toHaveProperty("cache");
    expect(lines()[0]).toMatchObject({ route: "unmatched", status: 404, msg: "request" });
  });

  it("wait in a batch, which any other line takes along first, so the log keeps the order of events", () => {
    const { logger, writes, lines } = capture({ requestBatchChars: 1_000_000 });
    logRequest(logger, { requestId: "a1", route: "public.health.live", status: 200, durationMs: 1 });
    logRequest(logger, { requestId: "a2", route: "public.health.live", status: 200, durationMs: 1 });
    expect(writes).toEqual([]);
    logger.warn("MET failed");
    logRequest(logger, { requestId: "a3", route: "public.health.live", status: 503, durationMs: 1 });
    expect(lines().map((line) => line.requestId ?? line.msg)).toEqual(["a1", "a2", "MET failed"]);
    flushLog(logger);
    expect(lines().map((line) => line.requestId ?? line.msg)).toEqual(["a1", "a2", "MET failed", "a3"]);
  });

  it("are written once a batch is full", () => {
    const { logger, writes } = capture({ requestBatchChars: 400 });
    for (let i = 0; i < 3; i++)
      logRequest(logger, { requestId: `r${i}`, route: "public.health.live", status: 200, durationMs: 1 });
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split("\n").filter(Boolean)).toHaveLength(3);
  });

  it("keep every line whole and in order across batches, a line longer than a whole batch too", () => {
    const { logger, lines } = capture({ requestBatchChars: 300 });
    const route = `public.${"x".repeat(3000)}`;
    for (let i = 0; i < 5; i++)
      logRequest(logger, {
        requestId: `r${i}`,
        route: i === 2 ? route : "public.health.live",
        status: 200,
        durationMs: i / 7,
      });
    flushLog(logger);
    expect(lines().map((line) => [line.requestId, line.route, line.durationMs])).toEqual(
      [0, 1, 2, 3, 4].map((i) => [`r${i}`, i === 2 ? route : "public.health.live", i / 7]),
    );
  });
});
