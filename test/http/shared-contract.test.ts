import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RawAnswer, rawRequest } from "../support/raw-http.ts";
import { type RunningService, startService } from "../support/service.ts";

describe("shared HTTP contract on the real server", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ corsOrigins: ["https://app.example.com"] });
  });
  afterAll(() => service.close());

  it("wraps success in { data, meta } with the request id of the X-Request-Id header", async () => {
    const { status, headers, body } = await service.request("/api/v1/economics/indicators");
    expect(status).toBe(200);
    expect(body.meta.requestId).toBe(headers.get("x-request-id"));
    expect(body.meta).toMatchObject({
      generatedAt: "2026-11-21T12:00:00.000Z",
      cached: false,
      cacheAgeSeconds: 0,
      stale: false,
      degraded: false,
    });
    expect(headers.get("ratelimit-limit")).toBe("1000");
    expect(headers.get("ratelimit-remaining")).toMatch(/^[0-9]+$/);
    expect(headers.get("ratelimit-reset")).toMatch(/^[0-9]+$/);
    expect(headers.get("vary")?.toLowerCase()).toContain("origin");
  });

  it("gives a fresh request id per response", async () => {
    const first = await service.request("/api/v1/economics/indicators");
    const second = await service.request("/api/v1/economics/indicators");
    expect(first.body.meta.requestId).not.toBe(second.body.meta.requestId);
  });

  it("answers an unknown path with 404 NOT_FOUND in the error envelope", async () => {
    const { status, headers, body } = await service.request("/api/v1/nothing-here");
    expect(status).toBe(404);
    expect(body.error).toEqual({
      code: "NOT_FOUND",
      message: expect.any(String),
      requestId: headers.get("x-request-id"),
    });
    expect(headers.get("vary")?.toLowerCase()).toContain("origin");
    expect(headers.get("ratelimit-limit")).not.toBeNull();
  });

  it("answers a wrong method on a known path with 405 and Allow", async () => {
    const { status, headers, body } = await service.request("/api/v1/economics/series", { method: "DELETE" });
    expect(status).toBe(405);
    expect(headers.get("allow")).toBe("GET, HEAD");
    expect(body.error.code).toBe("METHOD_NOT_ALLOWED");
  });

  it("answers HEAD with the status and headers of GET and no body", async () => {
    const get = await service.request("/api/v1/capabilities", {
      headers: { "x-api-key": service.createKey(["weather:read"]) },
    });
    const head = await fetch(`${service.url}/api/v1/capabilities`, {
      method: "HEAD",
      headers: { "x-api-key": service.createKey(["weather:read"]) },
    });
    expect(head.status).toBe(get.status);
    expect(await head.text()).toBe("");
    for (const name of ["content-type", "cache-control", "vary", "ratelimit-limit"])
      expect(head.headers.get(name)).toBe(get.headers.get(name));
    const unauthorised = await fetch(`${service.url}/api/v1/capabilities`, { method: "HEAD" });
    expect(unauthorised.status).toBe(401);
    expect(await unauthorised.text()).toBe("");
  });

  it("answers HEAD of an error with the headers its GET has, Content-Length included", async () => {
    const perResponse = new Set(["x-request-id", "ratelimit-remaining", "date"]);
    const comparable = (headers: RawAnswer["headers"]) =>
      Object.fromEntries(Object.entries(headers).filter(([name]) => !perResponse.has(name)));
    const errors = {
      "a malformed URL (400)": "/api/v1/economics/indicators/%ZZ",
      "a missing key (401)": "/api/v1/capabilities",
      "an unregistered path (404)": "/api/v1/nothing-here",
      "an invalid parameter (400 from the route)": "/api/v1/economics/series?limit=zero",
    };
    for (const [what, path] of Object.entries(errors)) {
      const get = await rawRequest(`${service.url}${path}`, {});
      const head = await rawRequest(`${service.url}${path}`, {}, "HEAD");
      expect(head.body.length, what).toBe(0);
      expect(head.status, what).toBe(get.status);
      expect(get.headers["content-length"], what).toBe(String(get.body.length));
      expect(comparable(head.headers), what).toEqual(comparable(get.headers));
    }
  });

  it("sends Cache-Control and a weak ETag on registry routes and 304 for a matching If-None-Match", async () => {
    const first = await service.request("/api/v1/economics/series?limit=2");
    expect(first.headers.get("cache-control")).toBe("public, max-age=3600");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await fetch(`${service.url}/api/v1/economics/series?limit=2`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const other = await service.request("/api/v1/economics/series?limit=1", { headers: { "if-none-match": etag } });
    expect(other.status).toBe(200);
    expect(other.headers.get("etag")).not.toBe(etag);
  });

  it("grants CORS only to configured origins, never *", async () => {
    const allowed = await service.request("/api/v1/economics/indicators", {
      headers: { origin: "https://app.example.com" },
    });
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    const other = await service.request("/api/v1/economics/indicators", {
      headers: { origin: "https://evil.example.net" },
    });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await fetch(`${service.url}/api/v1/capabilities`, {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example.com",
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("authorization");
  });
});

describe("authentication", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ environment: "production" });
  });
  afterAll(() => service.close());

  const capabilities = (headers: Record<string, string>) => service.request("/api/v1/capabilities", { headers });

  it("accepts a key as a bearer credential or in X-API-Key", async () => {
    const key = service.createKey(["economics:read"]);
    expect((await capabilities({ authorization: `Bearer ${key}` })).status).toBe(200);
    expect((await capabilities({ "x-api-key": key })).status).toBe(200);
  });

  it("refuses missing, malformed, unknown, revoked and other-environment keys with 401", async () => {
    const valid = service.createKey(["economics:read"]);
    const cases: Record<string, string>[] = [
      {},
      { authorization: "Basic abc" },
      { authorization: `Bearer ${valid.slice(0, -4)}${valid.endsWith("AAAA") ? "BBBB" : "AAAA"}` },
      { "x-api-key": `svc_0123456789abcdef_${"A".repeat(43)}` },
      { "x-api-key": service.createKey(["economics:read"], { revoked: true }) },
      { "x-api-key": service.createKey(["economics:read"], { environment: "preview" }) },
    ];
    for (const headers of cases) {
      const { status, body, headers: answered } = await capabilities(headers);
      expect(status, JSON.stringify(headers)).toBe(401);
      expect(body.error.code).toBe("UNAUTHORIZED");
      expect(answered.get("www-authenticate")).toBe('Bearer realm="service"');
    }
  });

  it("stores only a hash of the secret", async () => {
    const key = service.createKey(["weather:read"]);
    const { readFileSync } = await import("node:fs");
    const stored = readFileSync(service.config.keysFile, "utf8");
    expect(stored).not.toContain(key);
    const randomPart = /^svc_[0-9a-f]{16}_(.+)$/.exec(key)![1]!;
    expect(stored).not.toContain(randomPart);
  });
});

describe("rate limiting", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ rateLimit: { publicPerWindow: 3, credentialedPerWindow: 2, windowSeconds: 60 } });
  });
  afterAll(() => service.close());

  it("counts per route name and client in a fixed window and answers 429 with Retry-After", async () => {
    for (let i = 0; i < 3; i++) expect((await service.request("/api/v1/economics/indicators")).status).toBe(200);
    const limited = await service.request("/api/v1/economics/indicators");
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("RATE_LIMITED");
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await service.request("/api/v1/economics/series")).status).toBe(200);
    service.clock.advance(60_000);
    expect((await service.request("/api/v1/economics/indicators")).status).toBe(200);
  });

  it("counts credentialed routes per key", async () => {
    const first = service.createKey(["weather:read"]);
    const second = service.createKey(["weather:read"]);
    const call = (key: string) => service.request("/api/v1/capabilities", { headers: { "x-api-key": key } });
    expect((await call(first)).status).toBe(200);
    expect((await call(first)).status).toBe(200);
    expect((await call(first)).status).toBe(429);
    expect((await call(second)).status).toBe(200);
  });
});
