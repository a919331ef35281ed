import { describe, expect, it } from "vitest";
import { createLogger, flushLog, logRequest } from "../../server/observability/logger.ts";

function capture() {
  const writes: string[] = [];
  const logger = createLogger("info", { write: (text: string) => void writes.push(text) });
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

  it("keep the order of events with every other line", () => {
    const { logger, lines } = capture();
    logRequest(logger, { requestId: "a1", route: "public.health.live", status: 200, durationMs: 1 });
    logger.warn("MET failed");
    logRequest(logger, { requestId: "a2", route: "public.health.live", status: 503, durationMs: 1 });
    flushLog(logger);
    expect(lines().map((line) => line.requestId ?? line.msg)).toEqual(["a1", "MET failed", "a2"]);
  });
});
