import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAnswerCache } from "../../server/http/answer-cache.ts";
import { createCompressor } from "../../server/http/compression.ts";
import { HttpAnswer, renderAnswer } from "../../server/http/envelope.ts";
import { createNodeListener, isVerbatimUrl, writeAnswerOrFailure } from "../../server/http/node-listener.ts";
import { createPipeline } from "../../server/http/pipeline.ts";
import { prepareAnswer } from "../../server/http/prepared-answer.ts";
import type { RouteMeta } from "../../server/http/route-handler.ts";
import { SplicedBody } from "../../server/http/spliced-body.ts";
import { createLogger } from "../../server/observability/logger.ts";
import { createMetrics } from "../../server/observability/metrics.ts";
import { type MetStandin, startMetStandin } from "../support/met-standin.ts";
import { testSpec } from "../support/pipeline-harness.ts";
import { rawRequest } from "../support/raw-http.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";

/** Headers that differ between any two answers of one URL. */
const PER_RESPONSE_HEADERS = new Set(["x-request-id", "ratelimit-remaining", "date"]);

function comparableHeaders(headers: Headers): Record<string, string> {
  return Object.fromEntries([...headers].filter(([name]) => !PER_RESPONSE_HEADERS.has(name)));
}

/**
 * A URL h3 routed to a kept answer is answered from then on by the edge, without h3: the answer is the one h3 gives,
 * header for header, browsers' CORS headers included, and what h3 must see (other methods, URLs it rewrites) still goes
 * to h3.
 */
describe("answers at the edge", () => {
  const clock = fakeClock("2026-11-21T12:00:00.500Z");
  let met: MetStandin;
  let service: RunningService;

  beforeAll(async () => {
    met = await startMetStandin({ now: clock.now, expiresAfterMs: 30 * 60_000 });
    service = await startService({ clock, weatherBaseUrl: met.url, corsOrigins: ["https://app.example.com"] });
  });
  afterAll(async () => {
    await service.close();
    await met.close();
  });

  it("give the answer h3 gave, and are taken for every later request of that URL", async () => {
    const path = "/api/public/v1/weather/current?lat=50.11&lon=8.68";
    await service.request(path);
    clock.advance(1_000);
    const routedByH3 = await service.request(path);
    const before = service.edgeAnswers();
    const atTheEdge = await service.request(path);
    const head = await service.request(path, { method: "HEAD" });
    expect(service.edgeAnswers()).toBe(before + 2);
    expect(atTheEdge.headers.get("content-encoding")).toBe(routedByH3.headers.get("content-encoding"));

    expect(atTheEdge.status).toBe(200);
    expect(comparableHeaders(atTheEdge.headers)).toEqual(comparableHeaders(routedByH3.headers));
    expect(atTheEdge.body.data).toEqual(routedByH3.body.data);
    expect(atTheEdge.body.meta.requestId).toBe(atTheEdge.headers.get("x-request-id"));
    expect(atTheEdge.body.meta.requestId).not.toBe(routedByH3.body.meta.requestId);
    expect(Number(atTheEdge.headers.get("ratelimit-remaining"))).toBe(
      Number(routedByH3.headers.get("ratelimit-remaining")) - 1,
    );
    const identity = await service.request(path, { headers: { "accept-encoding": "identity" } });
    expect(identity.headers.get("content-encoding")).toBeNull();
    expect(Buffer.byteLength(identity.text)).toBe(Number(identity.headers.get("content-length")));
    expect(head.text).toBe("");
    expect(head.headers.get("content-length")).toBe(atTheEdge.headers.get("content-length"));
    expect(service.logEntries.find((entry) => entry.requestId === atTheEdge.body.meta.requestId)).toMatchObject({
      cache: "kept",
      status: 200,
    });
  });

  it("write the status line as srvx writes it for h3's answers", async () => {
    const path = "/api/public/v1/weather/current?lat=48.14&lon=11.58";
    const viaH3 = await fetch(service.url + path);
    await viaH3.arrayBuffer();
    clock.advance(1_000);
    await (await fetch(service.url + path)).arrayBuffer();
    const before = service.edgeAnswers();
    const atTheEdge = await fetch(service.url + path);
    await atTheEdge.arrayBuffer();
    expect(service.edgeAnswers()).toBe(before + 1);
    expect([atTheEdge.status, atTheEdge.statusText]).toEqual([viaH3.status, viaH3.statusText]);
  });

  it("take a URL whose answer repeats by its identity (the status answer)", async () => {
    const first = await service.request("/api/public/v1/status");
    await service.request("/api/public/v1/status");
    const before = service.edgeAnswers();
    const atTheEdge = await service.request("/api/public/v1/status");
    expect(service.edgeAnswers()).toBe(before + 1);
    expect(atTheEdge.body.data).toEqual(first.body.data);
  });

  it("still answer 304 to a matching If-None-Match", async () => {
    const path = "/api/public/v1/weather/forecast?lat=50.11&lon=8.68";
    await service.request(path);
    const first = await service.request(path);
    const before = service.edgeAnswers();
    const revalidated = await fetch(service.url + path, { headers: { "if-none-match": first.headers.get("etag")! } });
    expect(revalidated.status).toBe(304);
    expect(service.edgeAnswers()).toBe(before + 1);
  });

  it("answer browsers' requests as h3 does, allowed origin or not", async () => {
    for (const [lat, origin, allowed] of [
      ["50.13", "https://app.example.com", true],
      ["50.14", "https://elsewhere.example", false],
    ] as const) {
      const path = `/api/public/v1/weather/current?lat=${lat}&lon=8.68`;
      const headers = { origin };
      await service.request(path, { headers });
      // Built from the copy MET just sent, the first answer is not kept; the second is, and h3 routed it.
      const routedByH3 = await service.request(path, { headers });
      const before = service.edgeAnswers();
      const atTheEdge = await service.request(path, { headers });
      expect(service.edgeAnswers()).toBe(before + 1);
      expect(atTheEdge.status).toBe(200);
      expect(comparableHeaders(atTheEdge.headers)).toEqual(comparableHeaders(routedByH3.headers));
      expect(atTheEdge.headers.get("access-control-allow-origin")).toBe(allowed ? origin : null);
      expect(atTheEdge.headers.get("vary")).toContain("origin");
    }
  });

  it("leave other methods and rewritten URLs to h3", async () => {
    const path = "/api/public/v1/weather/current?lat=50.11&lon=8.68";
    await service.request(path);
    const before = service.edgeAnswers();
    const posted = await service.request(path, { method: "POST" });
    expect(posted.status).toBe(405);
    // Sent as written (a WHATWG client would send %27): h3 may read the quote otherwise, so the edge never takes it.
    const { hostname, port } = new URL(service.url);
    for (let i = 0; i < 3; i++)
      expect((await rawRequest({ host: hostname, port, path: `${path}&x='` }, {})).status).toBe(200);
    expect(service.edgeAnswers()).toBe(before);
  });

  it("check the key of a credentialed URL on every request", async () => {
    const key = service.createKey(["weather:read"]);
    const path = "/api/v1/weather/current?lat=50.1109&lon=8.6821";
    const authorised = { headers: { authorization: `Bearer ${key}` } };
    await service.request(path, authorised);
    await service.request(path, authorised);
    const before = service.edgeAnswers();
    expect((await service.request(path, authorised)).status).toBe(200);
    expect((await service.request(path)).status).toBe(401);
    expect((await service.request(path, { headers: { authorization: `Bearer ${key}x` } })).status).toBe(401);
    expect(service.edgeAnswers()).toBe(before + 3);
  });
});

describe("the Node listener", () => {
  it("takes only URLs h3 reads verbatim", () => {
    expect(isVerbatimUrl("/x?a=1&b=%20")).toBe(true);
    expect(isVerbatimUrl("/api/public/v1/weather/current?lat=50.11&lon=8.68")).toBe(true);
    for (const url of ["/x/./y", "/x//y", "/x/..", "/caf%C3%A9", '/x?q="a"', "/x?", "*", "x"]) {
      expect(isVerbatimUrl(url)).toBe(false);
    }
  });

  it("answers a failure of the pipeline with the contract's INTERNAL error, never a bare 500", async () => {
    const clock = { now: () => Date.parse("2026-11-23T12:00:00Z") };
    const pipeline = createPipeline(
      [{ spec: testSpec({ name: "public", path: "/x" }), handler: () => ({ data: null }) }],
      {
        environment: "test",
        corsOrigins: [],
        clock,
        keyLookup: () => undefined,
        rateLimiter: () => {
          throw new Error("a defect in the rate limiter");
        },
        durableStorage: true,
        trustedProxies: new Set(),
        answers: createAnswerCache(),
        compressor: createCompressor(),
        logger: createLogger("silent"),
        metrics: createMetrics(),
      },
    );
    const listener = createNodeListener({ ...pipeline, holds: () => true }, () => {
      throw new Error("not taken by the Node listener");
    });
    // As listen.ts serves: the Node listener reads repeated headers joined.
    const server = createServer({ joinDuplicateHeaders: true }, listener);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`);
      expect(response.status).toBe(500);
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await response.json()).toMatchObject({
        error: { code: "INTERNAL", requestId: response.headers.get("x-request-id") },
      });
    } finally {
      server.close();
    }
  });

  it("write a large answer from the bytes its data section is kept in, byte for byte its whole body", async () => {
    const data = { place: "Zürich – 東京", rows: Array.from({ length: 2_000 }, (_, n) => ({ n, note: "€ and ü" })) };
    // A field no route has: multi-byte text in `meta` too.
    const meta = { cached: true, note: "Tromsø – 東京" } as RouteMeta;
    const answer = prepareAnswer({ data, meta }, {});
    const body = renderAnswer(answer, "6f1c2b8e-3d4a-4f5b-9c6d-7e8f9a0b1c2d", "2026-11-23T12:00:00.000Z");
    expect(body).toBeInstanceOf(SplicedBody);
    const server = createServer((_req, res) =>
      writeAnswerOrFailure(res, new HttpAnswer(200, { "content-type": "application/json; charset=utf-8" }, body), {
        answerFailure: () => {
          throw new Error("the answer could not be written");
        },
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const whole = await fetch(base);
      const bytes = Buffer.from(await whole.arrayBuffer());
      const expected = {
        data,
        meta: {
          requestId: "6f1c2b8e-3d4a-4f5b-9c6d-7e8f9a0b1c2d",
          generatedAt: "2026-11-23T12:00:00.000Z",
          cached: true,
          cacheAgeSeconds: 0,
          stale: false,
          degraded: false,
          note: "Tromsø – 東京",
        },
      };
      expect(bytes.toString()).toBe(JSON.stringify(expected));
      expect(Number(whole.headers.get("content-length"))).toBe(Buffer.byteLength(JSON.stringify(expected)));
      const head = await fetch(base, { method: "HEAD" });
      expect([await head.text(), head.headers.get("content-length")]).toEqual(["", String(bytes.length)]);
    } finally {
      server.close();
    }
  });

  it("answer with the failure's answer when Node refuses to write theirs, and the server goes on", async () => {
    const server = createServer((req, res) => {
      // A header Node refuses (a line break in its value) makes writeHead throw inside Node's request listener.
      const answer = new HttpAnswer(
        200,
        { "content-type": "text/plain", "x-broken": req.url === "/broken" ? "a\r\nb" : "fine" },
        "ok",
      );
      writeAnswerOrFailure(res, answer, {
        answerFailure: () =>
          new HttpAnswer(500, { "content-type": "application/json; charset=utf-8" }, '{"error":{"code":"INTERNAL"}}'),
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const broken = await fetch(`${base}/broken`);
      expect(broken.status).toBe(500);
      expect(await broken.json()).toEqual({ error: { code: "INTERNAL" } });
      expect(broken.headers.get("x-broken")).toBeNull();
      const fine = await fetch(`${base}/fine`);
      expect([fine.status, await fine.text(), fine.headers.get("content-length")]).toEqual([200, "ok", "2"]);
    } finally {
      server.close();
    }
  });
});
