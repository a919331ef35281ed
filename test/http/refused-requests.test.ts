import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawExchange } from "../support/raw-http.ts";
import { type RunningService, startService } from "../support/service.ts";

describe("requests refused before routing", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ rateLimit: { publicPerWindow: 3 } });
  });
  afterAll(() => service.close());

  it("CONNECT gets the error envelope, and parser refusals are headed and counted under the unregistered route", async () => {
    const connectAnswer = await rawExchange(
      service.url,
      "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
    );
    expect(connectAnswer.head).toMatch(/^http\/1.1 400/);
    expect(connectAnswer.head).toContain("ratelimit-limit: 3");
    expect(connectAnswer.head).toContain("ratelimit-remaining: 2");
    expect(JSON.parse(connectAnswer.body).error).toMatchObject({ code: "BAD_REQUEST", requestId: expect.any(String) });

    const spaces = await rawExchange(service.url, "GET /api/v1/economics series HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(spaces.head).toContain("ratelimit-remaining: 1");
    const longUrl = await rawExchange(service.url, `GET /api/v1/${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(longUrl.head).toMatch(/^http\/1.1 (400|431)/);
    expect(longUrl.head).toContain("ratelimit-remaining: 0");
    // The allowance of the unregistered route is spent: the next unregistered request is refused with 429.
    const after = await service.request("/api/v1/no-such-path");
    expect(after.status).toBe(429);
  });
});

describe("CORS preflights", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ rateLimit: { publicPerWindow: 2 } });
  });
  afterAll(() => service.close());

  it("carry X-Request-Id and RateLimit-* and are counted like any request to their route", async () => {
    const preflight = () =>
      fetch(`${service.url}/api/v1/economics/series`, {
        method: "OPTIONS",
        headers: { origin: "https://app.example.com", "access-control-request-method": "GET" },
      });
    const first = await preflight();
    expect(first.status).toBe(204);
    expect(first.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.headers.get("ratelimit-remaining")).toBe("1");
    await preflight();
    expect((await preflight()).status).toBe(429);
    expect((await service.request("/api/v1/economics/series")).status).toBe(429);
  });
});

describe("a key presented on an unregistered path", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService();
    // An unreadable key file makes every key check leave a log line: the check itself becomes visible.
    writeFileSync(service.config.keysFile, "{ not json");
  });
  afterAll(() => service.close());

  it("is checked just as on an operator path, so the two answers take the same way through the pipeline", async () => {
    const headers = { authorization: `Bearer svc_0123456789abcdef_${"A".repeat(43)}` };
    const checks = () => service.logs.filter((line) => /key file could not be read/.test(line)).length;
    const hidden = await service.request("/api/v1/admin/ingestion/runs", { headers });
    expect(checks()).toBe(1);
    const unknown = await service.request("/api/v1/admin/ingestion/rung", { headers });
    expect(checks()).toBe(2);
    expect([hidden.status, unknown.status]).toEqual([404, 404]);
    expect([...hidden.headers.keys()].sort()).toEqual([...unknown.headers.keys()].sort());
    expect(hidden.body.error.message).toBe(unknown.body.error.message);
  });
});
