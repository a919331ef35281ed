import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMetClient, type MetClientOptions } from "../../server/weather/met-client.ts";
import { type WeatherUpstreamCode, WeatherUpstreamError } from "../../server/weather/upstream-error.ts";
import { type MetStandin, type MetStandinMode, startMetStandin } from "../support/met-standin.ts";

const START = Date.parse("2026-11-21T12:00:00Z");
const USER_AGENT = "weather-economics-service/0.1 ops@example.org";
const RECORDED_EXPIRES_AFTER_MS = 31 * 60_000 + 52_000; // London recording: Expires 12:16:23, Date 11:44:31
const LONDON = { lat: 51.5, lon: -0.1, altitude: 25 };

let now = START;
let standin: MetStandin;

beforeEach(async () => {
  now = START;
  standin = await startMetStandin({ now: () => now });
});
afterEach(() => standin.close());

function client(overrides: Partial<MetClientOptions> = {}) {
  return createMetClient({
    baseUrl: standin.url,
    userAgent: USER_AGENT,
    timeoutMs: 2000,
    maxBytes: 1_000_000,
    ...overrides,
  });
}

async function failure(promise: Promise<unknown>): Promise<WeatherUpstreamError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WeatherUpstreamError);
  return error as WeatherUpstreamError;
}

describe("MET client", () => {
  it("parses a 200: body, Expires as epoch ms, Last-Modified verbatim", async () => {
    const result = await client().fetchLocation(LONDON);
    expect(result.kind).toBe("modified");
    if (result.kind !== "modified") return;
    expect((result.body as any).properties.meta.updated_at).toBe("2020-07-20T01:30:57Z");
    expect(result.expires).toBe(START + RECORDED_EXPIRES_AFTER_MS);
    expect(result.lastModified).toBe("Sat, 21 Nov 2026 12:00:00 GMT");
  });

  it("asks for gzip, as MET's terms require, and decodes it", async () => {
    const result = await client().fetchLocation(LONDON);
    expect(standin.received[0]!.headers["accept-encoding"]).toContain("gzip");
    expect(result.kind).toBe("modified");
  });

  it("sends the User-Agent, and If-Modified-Since only when given", async () => {
    await client().fetchLocation(LONDON);
    await client().fetchLocation({ ...LONDON, ifModifiedSince: "Sat, 21 Nov 2026 11:00:00 GMT" });
    const [plain, conditional] = standin.received;
    expect(plain!.headers["user-agent"]).toBe(USER_AGENT);
    expect(plain!.headers["if-modified-since"]).toBeUndefined();
    expect(conditional!.headers["if-modified-since"]).toBe("Sat, 21 Nov 2026 11:00:00 GMT");
  });

  it("reports not-modified on 304, with the new Expires", async () => {
    now += 10 * 60_000;
    const result = await client().fetchLocation({ ...LONDON, ifModifiedSince: "Sat, 21 Nov 2026 12:00:00 GMT" });
    expect(result).toEqual({
      kind: "not-modified",
      expires: now + RECORDED_EXPIRES_AFTER_MS,
      lastModified: "Sat, 21 Nov 2026 12:00:00 GMT",
    });
  });

  it("reports a missing or unparsable Expires as null", async () => {
    await standin.close();
    standin = await startMetStandin({ now: () => now, expiresAfterMs: null });
    const result = await client().fetchLocation(LONDON);
    expect(result.expires).toBeNull();
  });

  it("sends MET's path with coordinates at 4 decimals and a whole-metre altitude", async () => {
    await client().fetchLocation({ lat: 59.91390000001, lon: 10.75224999, altitude: 12.6 });
    await client().fetchLocation({ lat: -33.868849, lon: 151.20929 });
    const [oslo, sydney] = standin.received;
    expect(oslo!.path).toBe("/weatherapi/locationforecast/2.0/complete");
    expect(oslo!.query.toString()).toBe("lat=59.9139&lon=10.7522&altitude=13");
    expect(sydney!.query.toString()).toBe("lat=-33.8688&lon=151.2093");
  });

  it("appends MET's path to a base URL with a trailing slash", async () => {
    await client({ baseUrl: `${standin.url}/` }).fetchLocation(LONDON);
    expect(standin.received[0]!.path).toBe("/weatherapi/locationforecast/2.0/complete");
  });

  const statusFailures: Array<[MetStandinMode, number]> = [
    ["server-error", 500],
    ["rate-limited", 429],
    ["forbidden", 403],
  ];
  for (const [mode, status] of statusFailures) {
    it(`maps HTTP ${status} to UPSTREAM_UNAVAILABLE without the body or URL in the message`, async () => {
      standin.setMode(mode);
      const error = await failure(client().fetchLocation(LONDON));
      expect(error.code).toBe("UPSTREAM_UNAVAILABLE");
      expect(error.message).not.toMatch(/html|127\.0\.0\.1|weatherapi|lat=/i);
    });
  }

  it("maps 404 (wrong base path) to UPSTREAM_UNAVAILABLE", async () => {
    const error = await failure(client({ baseUrl: `${standin.url}/elsewhere` }).fetchLocation(LONDON));
    expect(error.code).toBe("UPSTREAM_UNAVAILABLE");
  });

  it("maps a refused connection to UPSTREAM_UNAVAILABLE", async () => {
    const closedUrl = standin.url;
    await standin.close();
    standin = await startMetStandin({ now: () => now });
    const error = await failure(client({ baseUrl: closedUrl }).fetchLocation(LONDON));
    expect(error.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(error.message).not.toContain(closedUrl);
  });

  it("gives up on a provider that never answers with UPSTREAM_TIMEOUT", async () => {
    standin.setMode("hang");
    const started = performance.now();
    const error = await failure(client({ timeoutMs: 150 }).fetchLocation(LONDON));
    expect(error.code).toBe("UPSTREAM_TIMEOUT");
    expect(performance.now() - started).toBeLessThan(1500);
  });

  const tooLarge: Array<[string, MetStandinMode, number]> = [
    ["an announced Content-Length", "oversized", 1_000_000],
    ["a body streamed without Content-Length", "oversized-unannounced", 1_000_000],
    ["a gzip body that expands past the ceiling", "normal", 20_000], // London: about 4 KB gzipped, 53 KB plain
  ];
  for (const [what, mode, maxBytes] of tooLarge) {
    it(`refuses ${what} over maxBytes with UPSTREAM_PAYLOAD_TOO_LARGE`, async () => {
      standin.setMode(mode);
      const error = await failure(client({ maxBytes }).fetchLocation(LONDON));
      expect(error.code).toBe("UPSTREAM_PAYLOAD_TOO_LARGE");
    });
  }

  it("maps a body that is not JSON to UPSTREAM_INVALID_PAYLOAD without quoting it", async () => {
    standin.setMode("invalid-json");
    const error = await failure(client().fetchLocation(LONDON));
    expect(error.code).toBe("UPSTREAM_INVALID_PAYLOAD" satisfies WeatherUpstreamCode);
    expect(error.message).not.toMatch(/Feature|properties/);
  });

  it("refuses to be built without a User-Agent, which MET would block", () => {
    expect(() => client({ userAgent: "  " })).toThrow(/User-Agent/);
  });
});
