import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { UpstreamOutcome } from "../../server/upstream/fetch-limited.ts";
import {
  createDocumentWorker,
  createDocumentWorkerClient,
  type DocumentWorkerClientOptions,
  processDocumentWorker,
} from "../../server/weather/document-worker-client.ts";
import { createMetClient } from "../../server/weather/met-client.ts";
import { parseMetDocument } from "../../server/weather/met-document.ts";
import { normaliseMetDocument } from "../../server/weather/normalise.ts";
import { readPayload, storePayload } from "../../server/weather/stored-payload.ts";
import { WeatherUpstreamError } from "../../server/weather/upstream-error.ts";
import { type MetStandin, startMetStandin } from "../support/met-standin.ts";
import { rejection as failure } from "../support/weather-cache-harness.ts";

/** MET's documents read on the document worker: a real worker thread against the MET stand-in. */

const START = Date.parse("2026-11-21T12:00:00Z");
const LONDON = { lat: 51.5, lon: -0.1, altitude: 25 };
const SETTINGS = { userAgent: "document-worker-test/1 ops@example.org", timeoutMs: 2000, maxBytes: 1_000_000 };

const execFileAsync = promisify(execFile);

let standin: MetStandin;

beforeEach(async () => {
  standin = await startMetStandin({ now: () => START });
});
afterEach(() => standin.close());

/** A client of the process's document worker, the one every weather source of a process shares. */
function worker(options: Partial<DocumentWorkerClientOptions> = {}) {
  return createDocumentWorkerClient({ client: { baseUrl: standin.url, ...SETTINGS }, ...options });
}

describe("document worker", () => {
  it("answers with the payload packed from MET's document, as the serving thread would have read it", async () => {
    const [fromWorker, inProcess] = await Promise.all([
      worker().fetchLocation(LONDON),
      createMetClient({ baseUrl: standin.url, ...SETTINGS }).fetchLocation(LONDON),
    ]);
    if (fromWorker.kind !== "modified" || inProcess.kind !== "modified") throw new Error("expected two documents");
    const expected = normaliseMetDocument(parseMetDocument(inProcess.body));
    expect(readPayload(storePayload(fromWorker.body))).toEqual(expected);
    expect(fromWorker.body.sourceId).toBe(expected.current.source.id);
    expect({ expires: fromWorker.expires, lastModified: fromWorker.lastModified }).toEqual({
      expires: inProcess.expires,
      lastModified: inProcess.lastModified,
    });
  });

  it("passes MET's 304 on with its validators", async () => {
    const result = await worker().fetchLocation({ ...LONDON, ifModifiedSince: "Sat, 21 Nov 2026 12:00:00 GMT" });
    expect(result.kind).toBe("not-modified");
    expect(result.lastModified).toBe("Sat, 21 Nov 2026 12:00:00 GMT");
  });

  it("answers many requests at once, each with its own point", async () => {
    const client = worker();
    const points = Array.from({ length: 12 }, (_, i) => ({ lat: 50 + i, lon: 10 }));
    const results = await Promise.all(points.map((point) => client.fetchLocation(point)));
    expect(results.every((result) => result.kind === "modified")).toBe(true);
    expect(standin.received.map((request) => request.query.get("lat")).sort()).toEqual(
      points.map((point) => String(point.lat)).sort(),
    );
  });

  it.each([
    ["service-unavailable-retry-after", "UPSTREAM_UNAVAILABLE", 30_000],
    ["invalid-json", "UPSTREAM_INVALID_PAYLOAD", null],
    ["wrong-shape", "UPSTREAM_INVALID_PAYLOAD", null],
    ["oversized", "UPSTREAM_PAYLOAD_TOO_LARGE", null],
  ] as const)("carries MET's failure (%s) across as %s with its Retry-After", async (mode, code, retryAfterMs) => {
    standin.setMode(mode);
    const error = await failure(worker().fetchLocation(LONDON));
    expect(error.code).toBe(code);
    expect(error.retryAfterMs === null ? null : Math.round(error.retryAfterMs / 1000) * 1000).toBe(retryAfterMs);
  });

  it("reports how each request to MET ended, for operators' metrics", async () => {
    const calls: UpstreamOutcome[] = [];
    const client = worker({ recordCall: (outcome) => calls.push(outcome) });
    await client.fetchLocation(LONDON);
    standin.setMode("server-error");
    await failure(client.fetchLocation(LONDON));
    expect(calls).toEqual(["ok", "http-status"]);
  });

  it("refuses a blank User-Agent when it is built, and answers a defect of its own code as a plain error", async () => {
    expect(() => worker({ client: { baseUrl: standin.url, ...SETTINGS, userAgent: "  " } })).toThrow(/User-Agent/);
    const defect = await processDocumentWorker(SETTINGS.maxBytes)
      .read({ baseUrl: standin.url, ...SETTINGS, userAgent: "" }, LONDON)
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(defect).toBeInstanceOf(Error);
    expect(defect).not.toBeInstanceOf(WeatherUpstreamError);
    expect((defect as Error).message).toMatch(/^MET's document worker failed: .*User-Agent/);
  });

  it("does not keep the process alive once it has answered", async () => {
    const script = join(mkdtempSync(join(tmpdir(), "document-worker-")), "one-request.mts");
    writeFileSync(
      script,
      [
        `import { createDocumentWorkerClient } from ${JSON.stringify(new URL("../../server/weather/document-worker-client.ts", import.meta.url).pathname)};`,
        `const client = createDocumentWorkerClient({ client: ${JSON.stringify({ baseUrl: standin.url, ...SETTINGS })} });`,
        `const result = await client.fetchLocation(${JSON.stringify(LONDON)});`,
        `process.stdout.write(result.kind);`,
      ].join("\n"),
    );
    // Asynchronously: the stand-in answers from this process.
    const { stdout } = await execFileAsync(process.execPath, ["--import", "tsx", script], {
      cwd: process.cwd(),
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(stdout).toBe("modified");
  });

  it("fails the requests of a worker that stops, says why, and starts another for the next request", async () => {
    // A heap far too small for its work: the thread runs out of memory and stops.
    const starving = createDocumentWorker({ maxOldGenerationSizeMb: 2, maxYoungGenerationSizeMb: 1 });
    const client = worker({ worker: starving });
    for (const attempt of [1, 2]) {
      const error = await failure(client.fetchLocation(LONDON));
      expect(error.code, `attempt ${attempt}`).toBe("UPSTREAM_UNAVAILABLE");
      expect(error.message, `attempt ${attempt}`).toMatch(/^MET's document worker stopped: .*memory/i);
    }
  });

  it("counts its request to MET when it then runs out of heap reading the answer", async () => {
    // A 200 whose body (not a forecast, 12 MiB) takes over 12 MB of heap to read: the thread gets enough to start and
    // ask (about 13 MB), not to read it. A body under 16 MiB: a larger single allocation can take the process with it.
    const big = await startMetStandin({ now: () => START, oversizedBytes: 12 * 1024 * 1024 });
    try {
      big.setMode("oversized");
      const calls: UpstreamOutcome[] = [];
      const client = createDocumentWorkerClient({
        client: { baseUrl: big.url, ...SETTINGS, maxBytes: 16_000_000 },
        worker: createDocumentWorker({ maxOldGenerationSizeMb: 20, maxYoungGenerationSizeMb: 1 }),
        recordCall: (outcome) => calls.push(outcome),
      });
      const error = await failure(client.fetchLocation(LONDON));
      expect(error.message).toMatch(/^MET's document worker stopped: .*memory/i);
      expect({ calls, received: big.requests }).toEqual({ calls: ["ok"], received: 1 });
    } finally {
      await big.close();
    }
  });

  it("stops once idle for its idle time, and starts again for the next request", async () => {
    const idle = createDocumentWorker({ maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 2 }, 100);
    const client = worker({ worker: idle });
    expect(idle.running).toBe(false);
    await Promise.all([client.fetchLocation(LONDON), client.fetchLocation({ lat: 48.85, lon: 2.35 })]);
    expect(idle.running).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(idle.running).toBe(false);
    expect((await client.fetchLocation(LONDON)).kind).toBe("modified");
    expect(idle.running).toBe(true);
  });

  it("serves weather sources with different providers, each request with its own settings", async () => {
    const other = await startMetStandin({ now: () => START });
    try {
      const [here, there] = await Promise.all([
        worker().fetchLocation(LONDON),
        worker({ client: { baseUrl: other.url, ...SETTINGS } }).fetchLocation(LONDON),
      ]);
      expect([here.kind, there.kind]).toEqual(["modified", "modified"]);
      expect([standin.requests, other.requests]).toEqual([1, 1]);
    } finally {
      await other.close();
    }
  });
});
