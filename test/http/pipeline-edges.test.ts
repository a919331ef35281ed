import { writeFileSync } from "node:fs";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawExchange } from "../support/raw-http.ts";
import { type RunningService, startService } from "../support/service.ts";

describe("a trailing slash", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());

  it("answers a path with a trailing slash like an unregistered path; a bad slug never falls through to the listing", async () => {
    for (const path of [
      "/api/v1/economics/indicators/",
      "/api/v1/economics/indicators/consumer-prices-us/",
      "/api/public/v1/status/",
    ]) {
      const { status, body } = await service.request(path);
      expect(status, path).toBe(404);
      expect(body.error.code).toBe("NOT_FOUND");
    }
  });
});

describe("a malformed URL", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ rateLimit: { publicPerWindow: 3 } });
  });
  afterAll(() => service.close());

  it("is shaped, headed and counted like every other answer", async () => {
    // fetch would normalise the URL; undici sends the path as written.
    const malformed = () =>
      request(`${service.url}/api/v1/economics/indicators/%ZZ`, { headers: { origin: "https://elsewhere.example" } });
    const first = await malformed();
    const body = (await first.body.json()) as { error: { code: string; requestId: string } };
    expect(first.statusCode).toBe(400);
    expect(body.error.code).toBe("BAD_REQUEST");
    expect(body.error.requestId).toBe(first.headers["x-request-id"]);
    expect(String(first.headers.vary).toLowerCase()).toContain("origin");
    expect(first.headers["ratelimit-limit"]).toBe("3");
    for (let i = 0; i < 2; i++) await (await malformed()).body.text();
    const limited = await malformed();
    expect(limited.statusCode).toBe(429);
    await limited.body.text();
  });
});

describe("an unreadable key file", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService();
    writeFileSync(service.config.keysFile, "{ this is not json");
  });
  afterAll(() => service.close());

  it("is a logged CONFIGURATION_ERROR on credentialed routes, never an unexplained 500", async () => {
    const { status, body, text } = await service.request("/api/v1/capabilities", {
      headers: { "x-api-key": `svc_0123456789abcdef_${"A".repeat(43)}` },
    });
    expect(status).toBe(500);
    expect(body.error.code).toBe("CONFIGURATION_ERROR");
    expect(text).not.toMatch(/json|keys\.json|position/i);
    expect(service.logs.join("\n")).toMatch(/key file could not be read/);
  });

  it("leaves operator paths answering like unregistered ones", async () => {
    const hidden = await service.request("/api/v1/admin/ingestion/runs", {
      headers: { authorization: `Bearer svc_0123456789abcdef_${"A".repeat(43)}` },
    });
    const unknown = await service.request("/api/v1/no-such-thing");
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.message).toBe(unknown.body.error.message);
  });

  it("does not affect public routes", async () => {
    expect((await service.request("/api/v1/economics/indicators")).status).toBe(200);
  });
});

describe("a request Node itself cannot parse", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());

  it("still gets the contract's error body, not Node's bare 400", async () => {
    const { head, body } = await rawExchange(
      service.url,
      Buffer.concat([
        Buffer.from("GET /api/v1/economics/"),
        Buffer.from([0xff, 0xfe]),
        Buffer.from(" HTTP/1.1\r\nHost: x\r\n\r\n"),
      ]),
    );
    expect(head).toMatch(/^http\/1.1 400/);
    expect(head).toContain("vary: origin");
    expect(JSON.parse(body).error).toMatchObject({ code: "BAD_REQUEST", requestId: expect.any(String) });
  });
});
