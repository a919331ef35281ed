import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type RequestState, requestLineText } from "../../server/http/request-state.ts";
import { flushLog, type Logger, logRequestLine } from "../../server/observability/logger.ts";
import { loggedPath, loggedQuery } from "../../server/observability/request-line-text.ts";
import { capturedLog } from "../support/captured-log.ts";

/** A request's line by the names it has in the log; `query` is handed on as the request's search. */
interface LineFields {
  requestId: string;
  method: string;
  path: string;
  query: string;
  client: string;
  keyId?: string;
  route: string;
  status: number;
  durationMs: number;
  bytes: number;
  cache?: RequestState["cache"];
}

/** The line as logAnswer writes it for a request state holding these fields. */
function logRequest(logger: Logger, fields: LineFields): void {
  const { requestId, method, path, query, client, keyId, route, status, durationMs, bytes, cache } = fields;
  const headers = { "x-request-id": requestId, "content-length": String(bytes) };
  const state = {
    id: requestId,
    request: { method, pathname: path, search: query },
    client,
    keyId,
    route,
    cache,
    headers,
  };
  logRequestLine(logger, requestLineText(state, status, durationMs));
}

/** A request's line, for the fields a test does not name. */
const line = (fields: Partial<LineFields> & Pick<LineFields, "requestId" | "route" | "status" | "durationMs">) => ({
  method: "GET",
  path: "/api/public/v1/health/live",
  query: "",
  client: "127.0.0.1",
  bytes: 0,
  ...fields,
});

describe("request log lines", () => {
  it("have the form and the fields of the line pino writes for the same request", () => {
    const fields: LineFields = {
      requestId: "0b0f3f0e-6d0a-4d59-9a5b-6f8b5c3f2a11",
      method: "GET",
      path: "/api/v1/weather/current",
      query: "lat=59.91&lon=10.75",
      client: "2001:db8::1",
      keyId: "0123456789abcdef",
      route: "weather.current",
      status: 200,
      durationMs: 0.042,
      bytes: 1834,
      cache: "hit",
    };
    const template = capturedLog();
    // Rounded to the microsecond as written.
    logRequest(template.logger, { ...fields, durationMs: 0.0421234 });
    const generic = capturedLog();
    generic.logger.info(fields, "request");
    const [ours] = template.lines();
    const [pinos] = generic.lines();
    expect(Object.keys(ours!)).toEqual(Object.keys(pinos!));
    expect({ ...ours, time: null }).toEqual({ ...pinos, time: null });
    expect(Date.parse(String(ours!.time))).not.toBeNaN();
  });

  it("leave out the cache field when the answer was not looked up in a cache", () => {
    const { logger, lines } = capturedLog();
    logRequest(
      logger,
      line({ requestId: "0b0f3f0e-6d0a-4d59-9a5b-6f8b5c3f2a11", route: "unmatched", status: 404, durationMs: 0.01 }),
    );
    expect(lines()[0]).not.toHaveProperty("cache");
    expect(lines()[0]).toMatchObject({ route: "unmatched", status: 404, msg: "request" });
  });

  it("name 0 bytes for a HEAD, whose body Node drops, and the stated length for any other", () => {
    const { logger, lines } = capturedLog();
    logRequest(logger, line({ requestId: "h", route: "public.health.live", status: 200, durationMs: 1, bytes: 120 }));
    logRequest(
      logger,
      line({ requestId: "h", route: "public.health.live", status: 200, durationMs: 1, bytes: 120, method: "HEAD" }),
    );
    expect(lines().map((entry) => entry.bytes)).toEqual([120, 0]);
  });

  it("wait in a batch, which any other line takes along first, so the log keeps the order of events", () => {
    const { logger, writes, lines } = capturedLog({ requestBatchChars: 1_000_000 });
    logRequest(logger, line({ requestId: "a1", route: "public.health.live", status: 200, durationMs: 1 }));
    logRequest(logger, line({ requestId: "a2", route: "public.health.live", status: 200, durationMs: 1 }));
    expect(writes).toEqual([]);
    logger.warn("MET failed");
    logRequest(logger, line({ requestId: "a3", route: "public.health.live", status: 503, durationMs: 1 }));
    expect(lines().map((line) => line.requestId ?? line.msg)).toEqual(["a1", "a2", "MET failed"]);
    flushLog(logger);
    expect(lines().map((line) => line.requestId ?? line.msg)).toEqual(["a1", "a2", "MET failed", "a3"]);
  });

  it("from a child logger join its parent's batch, after the lines the parent holds", () => {
    const { logger, writes, lines } = capturedLog({ requestBatchChars: 1_000_000 });
    logRequest(logger, line({ requestId: "p1", route: "public.health.live", status: 200, durationMs: 1 }));
    expect(writes).toEqual([]);
    const child = logger.child({ component: "test" });
    logRequest(child, line({ requestId: "c1", route: "public.health.live", status: 200, durationMs: 1 }));
    flushLog(child);
    expect(lines().map((entry) => entry.requestId)).toEqual(["p1", "c1"]);
  });

  it("are written once a batch is full", () => {
    const request = (i: number) =>
      line({ requestId: `r${i}`, route: "public.health.live", status: 200, durationMs: 1 });
    const one = capturedLog();
    logRequest(one.logger, request(0));
    // A batch that two lines do not fill and three do.
    const { logger, writes } = capturedLog({ requestBatchChars: Math.round(one.writes[0]!.length * 2.5) });
    for (let i = 0; i < 3; i++) logRequest(logger, request(i));
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split("\n").filter(Boolean)).toHaveLength(3);
  });

  it("keep every line whole and in order across batches, a line longer than a whole batch too", () => {
    const { logger, lines } = capturedLog({ requestBatchChars: 300 });
    const route = `public.${"x".repeat(3000)}`;
    for (let i = 0; i < 5; i++)
      logRequest(
        logger,
        line({ requestId: `r${i}`, route: i === 2 ? route : "public.health.live", status: 200, durationMs: i / 7 }),
      );
    flushLog(logger);
    expect(lines().map((line) => [line.requestId, line.route, line.durationMs])).toEqual(
      [0, 1, 2, 3, 4].map((i) => [`r${i}`, i === 2 ? route : "public.health.live", Math.round((i / 7) * 1000) / 1000]),
    );
  });

  it("never carry a secret: credential-like parameters' values and any API key's secret part are replaced", () => {
    const { logger, lines } = capturedLog();
    const secret = "svc_0123456789abcdef_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde";
    const queries = [
      `api_key=${secret}&lat=1`,
      "access_token=abc.def&tz=Europe%2FOslo",
      `q=${encodeURIComponent(secret)}`,
      "%61pi%5Fkey=hidden",
      "Authorization=Bearer%20x",
      "pwd=hunter2&jwt=eyJhidden&sig=s1gned",
      `x=${encodeURIComponent(encodeURIComponent(secret))}`,
    ];
    for (const [i, query] of queries.entries())
      logRequest(
        logger,
        line({ requestId: `s${i}`, route: "public.weather.current", status: 200, durationMs: 1, query }),
      );
    logRequest(
      logger,
      line({ requestId: "p", route: "unmatched", status: 404, durationMs: 1, path: `/api/v1/${secret}` }),
    );
    const text = JSON.stringify(lines());
    for (const hidden of ["AbCdEfGhIjKl", "abc.def", "hidden", "Bearer", "hunter2", "s1gned"])
      expect(text).not.toContain(hidden);
    expect(lines().map((entry) => entry.query)).toEqual([
      "api_key=REDACTED&lat=1",
      "access_token=REDACTED&tz=Europe%2FOslo",
      "q=svc_0123456789abcdef_REDACTED",
      "%61pi%5Fkey=REDACTED",
      "Authorization=REDACTED",
      "pwd=REDACTED&jwt=REDACTED&sig=REDACTED",
      "x=svc_0123456789abcdef_REDACTED",
      "",
    ]);
    expect(lines().at(-1)!.path).toBe("/api/v1/svc_0123456789abcdef_REDACTED");
  });

  it("stay one JSON line whatever the path and query hold (quotes, backslashes, control and non-ASCII characters)", () => {
    const { logger, lines } = capturedLog({ requestBatchChars: 1_000_000 });
    const odd = 'a"b\\c\n\u0001é€😀';
    logRequest(
      logger,
      line({
        requestId: "x",
        route: "unmatched",
        status: 400,
        durationMs: 1,
        method: 'GE"T',
        path: `/${odd}`,
        query: odd,
      }),
    );
    logRequest(logger, line({ requestId: "y", route: "unmatched", status: 404, durationMs: 1 }));
    flushLog(logger);
    expect(lines()).toHaveLength(2);
    expect(lines()[0]).toMatchObject({ method: 'GE"T', path: `/${odd}`, query: odd, status: 400 });
    expect(lines()[1]).toMatchObject({ requestId: "y" });
  });

  it("for any path and query: one JSON line, nothing lost but secrets (property)", () => {
    const secret = fc
      .tuple(fc.stringMatching(/^[0-9a-f]{16}$/), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/))
      .map(([id, rest]) => `svc_${id}_${rest}`);
    const text = fc.oneof(
      // Any UTF-16 code units, lone surrogates and control characters included.
      fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 12 }).map((codes) => String.fromCharCode(...codes)),
      secret,
      secret.map(encodeURIComponent),
      fc.constantFrom("api_key=", "&", "=", "%", "\\", '"'),
    );
    const piece = fc.array(text, { maxLength: 6 }).map((parts) => parts.join(""));
    const { logger, writes } = capturedLog();
    fc.assert(
      fc.property(piece, piece, (path, query) => {
        const before = writes.length;
        logRequest(logger, line({ requestId: "r", route: "unmatched", status: 404, durationMs: 1, path, query }));
        const [entry, ...rest] = writes
          .slice(before)
          .join("")
          .split("\n")
          .filter(Boolean)
          .map((text) => JSON.parse(text) as Record<string, unknown>);
        expect(rest).toEqual([]);
        expect(entry!.path).toBe(loggedPath(path));
        expect(entry!.query).toBe(loggedQuery(query));
        expect(JSON.stringify(entry)).not.toMatch(/svc_[0-9a-f]{16}_(?!REDACTED)[A-Za-z0-9_-]{43}/);
      }),
      { numRuns: 300 },
    );
  });
});
