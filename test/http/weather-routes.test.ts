import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type MetStandin, startMetStandin } from "../support/met-standin.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";

describe("weather routes against a MET stand-in", () => {
  const clock = fakeClock();
  let met: MetStandin;
  let service: RunningService;
  let key: string;
  let point = 0;
  /** A point nobody asked for yet, so each test starts with an empty cache entry. */
  const freshPoint = () => `lat=${(59 + ++point / 100).toFixed(2)}&lon=10.75`;

  beforeAll(async () => {
    met = await startMetStandin({ now: clock.now });
    service = await startService({ clock, weatherBaseUrl: met.url });
    key = service.createKey(["weather:read"]);
  });
  afterEach(() => met.setMode("normal"));
  afterAll(async () => {
    await service.close();
    await met.close();
  });

  const credentialed = (path: string) => service.request(path, { headers: { authorization: `Bearer ${key}` } });

  it("maps the first provider entry onto the current record, with provenance and attribution", async () => {
    const { status, body } = await credentialed("/api/v1/weather/current?lat=51.5&lon=-0.1");
    expect(status).toBe(200);
    const current = body.data.current;
    expect(body.data.units).toBe("metric");
    expect(current).toMatchObject({
      location: { latitude: 51.5, longitude: -0.1, altitudeMetres: 25 },
      observedAt: "2020-07-20T11:00:00Z",
      providerModelUpdatedAt: "2020-07-20T01:30:57Z",
      temperatureC: 18.8,
      windSpeedMps: 2.3,
      humidityPercent: 47,
      pressureHpa: 1023.2,
      windDirectionDegrees: 349.3,
      cloudCoverPercent: 12.5,
      uvIndex: 6.4,
      precipitationMm: 0,
      condition: { code: "CLEAR_SKY", thunder: false, dayPart: "DAY" },
      attribution: { required: true, licenseName: "NLOD 2.0 and CC BY 4.0" },
    });
    expect(current.source.id).toBe("met-norway-locationforecast");
    expect(body.meta.attributionRecords).toEqual([
      expect.objectContaining({ sourceId: "met-norway-locationforecast", required: true, modifiedByService: true }),
    ]);
    expect(body.meta.canonicalUnits).toEqual({
      temperature: "celsius",
      windSpeed: "m/s",
      pressure: "hPa",
      precipitation: "mm",
    });
  });

  it("requires weather:read", async () => {
    expect((await service.request("/api/v1/weather/current?lat=1&lon=1")).status).toBe(401);
    const other = service.createKey(["economics:read"]);
    const forbidden = await service.request("/api/v1/weather/current?lat=1&lon=1", { headers: { "x-api-key": other } });
    expect(forbidden.status).toBe(403);
  });

  it("goes through the whole cache lifecycle with truthful freshness", async () => {
    const where = freshPoint();
    const first = await credentialed(`/api/v1/weather/current?${where}`);
    expect(first.body.meta).toMatchObject({ cached: false, cacheAgeSeconds: 0, stale: false, degraded: false });
    const requestsAfterFirst = met.requests;

    clock.advance(90_000);
    const fresh = await credentialed(`/api/v1/weather/current?${where}`);
    expect(fresh.body.meta).toMatchObject({ cached: true, cacheAgeSeconds: 90, stale: false, degraded: false });
    expect(met.requests).toBe(requestsAfterFirst);

    clock.advance(32 * 60_000);
    const revalidated = await credentialed(`/api/v1/weather/current?${where}`);
    expect(revalidated.body.meta).toMatchObject({ cached: true, cacheAgeSeconds: 0, stale: false });
    expect(met.received.at(-1)!.headers["if-modified-since"]).toBeDefined();

    clock.advance(40 * 60_000);
    met.setMode("server-error");
    const stale = await credentialed(`/api/v1/weather/current?${where}`);
    expect(stale.status).toBe(200);
    expect(stale.body.meta).toMatchObject({ cached: true, cacheAgeSeconds: 2400, stale: true, degraded: true });

    clock.advance(22_200_000);
    const unservable = await credentialed(`/api/v1/weather/current?${where}`);
    expect(unservable.status).toBe(503);
    expect(unservable.body.error.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(unservable.headers.get("retry-after")).toMatch(/^[0-9]+$/);
  });

  it("refreshes when the provider has a new model run", async () => {
    const where = freshPoint();
    await credentialed(`/api/v1/weather/current?${where}`);
    clock.advance(33 * 60_000);
    met.publish("complete-berlin-2022-08-02.json");
    const refreshed = await credentialed(`/api/v1/weather/current?${where}`);
    expect(refreshed.body.meta).toMatchObject({ cached: false, cacheAgeSeconds: 0 });
    expect(refreshed.body.data.current.providerModelUpdatedAt.startsWith("2022-08-02")).toBe(true);
    met.publish("complete-london-2020-07-20.json");
  });

  it("shares one cache entry and one upstream call between both routes, any tz, and concurrent callers", async () => {
    const where = freshPoint();
    const before = met.requests;
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        credentialed(
          index % 2 ? `/api/v1/weather/current?${where}` : `/api/v1/weather/forecast?${where}&tz=Europe/Oslo`,
        ),
      ),
    );
    await credentialed(`/api/v1/weather/forecast?${where}&tz=America/New_York`);
    await service.request(`/api/public/v1/weather/current?${where}`);
    expect(met.requests - before).toBe(1);
  });

  it("maps each provider failure to its code and status, never inventing a payload", async () => {
    const cases = [
      ["server-error", 503, "UPSTREAM_UNAVAILABLE"],
      ["rate-limited", 503, "UPSTREAM_UNAVAILABLE"],
      ["forbidden", 503, "UPSTREAM_UNAVAILABLE"],
      ["hang", 504, "UPSTREAM_TIMEOUT"],
      ["oversized", 502, "UPSTREAM_PAYLOAD_TOO_LARGE"],
      ["invalid-json", 502, "UPSTREAM_INVALID_PAYLOAD"],
    ] as const;
    for (const [mode, status, code] of cases) {
      met.setMode(mode);
      const { status: got, body, text } = await credentialed(`/api/v1/weather/current?${freshPoint()}`);
      expect(got, mode).toBe(status);
      expect(body.error.code, mode).toBe(code);
      expect(text).not.toContain("127.0.0.1");
    }
  });

  it("validates credentialed coordinates with WEATHER_LOCATION_INVALID and rounds to 4 decimals", async () => {
    for (const query of [
      "lat=abc&lon=1",
      "lat=91&lon=1",
      "lat=1&lon=-180.5",
      "lon=1",
      "lat=1&lon=1&altitude=9001",
      "lat=1&lon=1&altitude=-501",
      "lat=1e2&lon=1",
    ]) {
      const { status, body } = await credentialed(`/api/v1/weather/current?${query}`);
      expect(status, query).toBe(400);
      expect(body.error.code, query).toBe("WEATHER_LOCATION_INVALID");
    }
    await credentialed("/api/v1/weather/forecast?lat=59.123456&lon=10.987654&altitude=99.6");
    const sent = met.received.at(-1)!.query;
    expect([sent.get("lat"), sent.get("lon"), sent.get("altitude")]).toEqual(["59.1235", "10.9877", "100"]);
    expect(
      (await credentialed("/api/v1/weather/forecast?lat=59.123456&lon=10.987654&altitude=99.6")).body.data.location,
    ).toEqual({ latitude: 59.1235, longitude: 10.9877, altitudeMetres: 100 });
  });

  it("reads coordinates written with an exponent, as JavaScript's String writes small numbers, and nothing else that is not a decimal", async () => {
    expect(String(1e-7)).toBe("1e-7");
    const plain = await credentialed("/api/v1/weather/current?lat=59.9&lon=0");
    for (const query of [
      `lat=59.9&lon=${1e-7}`,
      "lat=5.99e1&lon=0",
      "lat=599E-1&lon=-0e0",
      "lat=%2B.599e%2B2&lon=1e-400",
    ]) {
      const { status, body } = await credentialed(`/api/v1/weather/current?${query}`);
      expect(status, query).toBe(200);
      expect(body.data.current.location, query).toEqual(plain.body.data.current.location);
    }
    for (const query of [
      "lat=0x10&lon=1",
      "lat=Infinity&lon=1",
      "lat=1e&lon=1",
      "lat=1e%2B&lon=1",
      "lat=e5&lon=1",
      "lat=1e400&lon=1",
      "lat=1_0&lon=1",
    ]) {
      const { status, body } = await credentialed(`/api/v1/weather/current?${query}`);
      expect(status, query).toBe(400);
      expect(body.error.code, query).toBe("WEATHER_LOCATION_INVALID");
    }
  });

  it("adds imperial fields beside metric ones on the credentialed route; other units values are metric", async () => {
    const imperial = (await credentialed("/api/v1/weather/current?lat=51.5&lon=-0.1&units=imperial")).body.data;
    expect(imperial.units).toBe("imperial");
    expect(imperial.current).toMatchObject({
      temperatureC: 18.8,
      temperatureF: 65.8,
      windSpeedMps: 2.3,
      windSpeedMph: 5.1,
    });
    for (const units of ["Imperial", "IMPERIAL", "", "kelvin"]) {
      const { status, body } = await credentialed(`/api/v1/weather/current?lat=51.5&lon=-0.1&units=${units}`);
      expect(status).toBe(200);
      expect(body.data.units).toBe("metric");
      expect(body.data.current.temperatureF).toBeUndefined();
    }
  });

  it("applies the forecast limit to daily records only, ignores days, states dayCount and refuses a bad tz or limit", async () => {
    const defaults = (await credentialed("/api/v1/weather/forecast?lat=51.5&lon=-0.1&days=banana")).body;
    expect(defaults.data.daily.length).toBeLessThanOrEqual(9);
    expect(defaults.meta.dayCount).toBe(defaults.data.daily.length);
    expect(defaults.data.hourly.length).toBeGreaterThan(24);
    const clamped = (await credentialed("/api/v1/weather/forecast?lat=51.5&lon=-0.1&limit=50")).body;
    expect(clamped.data.daily.length).toBeLessThanOrEqual(10);
    expect(clamped.data.daily.length).toBeGreaterThanOrEqual(defaults.data.daily.length);
    expect((await credentialed("/api/v1/weather/forecast?lat=51.5&lon=-0.1&limit=2.9")).body.data.daily).toHaveLength(
      2,
    );
    expect((await credentialed("/api/v1/weather/forecast?lat=51.5&lon=-0.1&limit=0")).body.error.code).toBe(
      "VALIDATION_FAILED",
    );
    expect((await credentialed("/api/v1/weather/forecast?lat=51.5&lon=-0.1&tz=Mars/Olympus")).body.error.code).toBe(
      "VALIDATION_FAILED",
    );
    const day = defaults.data.daily[1];
    expect(day).toMatchObject({
      derivation: "SERVICE_DERIVED",
      transformation: expect.arrayContaining(["AGGREGATION"]),
    });
    expect(defaults.data.daily[0].partial).toBe(true);
  });

  it("reads tz in any ASCII case as the tz database spells it: the same body and ETag for every spelling", async () => {
    const forecast = (tz: string) => service.request(`/api/public/v1/weather/forecast?lat=52.52&lon=13.4&tz=${tz}`);
    const berlin = await forecast("Europe/Berlin");
    expect(berlin.body.data.forecast.timeZone).toBe("Europe/Berlin");
    for (const spelling of ["EUROPE/BERLIN", "europe/berlin", "%20Europe/Berlin%20"]) {
      const other = await forecast(spelling);
      expect(other.status, spelling).toBe(200);
      expect(other.headers.get("etag"), spelling).toBe(berlin.headers.get("etag"));
      expect(other.body.data, spelling).toEqual(berlin.body.data);
    }
    expect((await forecast("us/eastern")).body.data.forecast.timeZone).toBe("US/Eastern");
    for (const refused of ["SystemV/EST5", "PST", "JST", "Europe/%E2%84%AAiev"]) {
      const { status, body } = await forecast(refused);
      expect([status, body.error.code], refused).toEqual([400, "VALIDATION_FAILED"]);
    }
  });

  it("serves the public routes at 2 decimals with fetchedAt, precision text and cache headers", async () => {
    const current = await service.request("/api/public/v1/weather/current?lat=51.5049&lon=-0.1051");
    expect(current.status).toBe(200);
    expect(current.body.data.current.location).toEqual({ latitude: 51.5, longitude: -0.11, altitudeMetres: null });
    expect(current.body.meta.fetchedAt).toMatch(/Z$/);
    expect(current.body.meta.coordinatePrecision).toMatch(/2 decimal/);
    expect(current.headers.get("cache-control")).toBe("public, max-age=600");
    const forecast = await service.request("/api/public/v1/weather/forecast?lat=51.5&lon=-0.1");
    expect(forecast.headers.get("cache-control")).toBe("public, max-age=1800");
    expect(forecast.body.data.forecast.hours).toHaveLength(24);
    expect(forecast.body.data.forecast.days.length).toBeLessThanOrEqual(7);
    const clamped = await service.request("/api/public/v1/weather/forecast?lat=51.5&lon=-0.1&hours=500&days=500");
    expect(clamped.body.data.forecast.hours.length).toBeLessThanOrEqual(48);
    expect(clamped.body.data.forecast.days.length).toBeLessThanOrEqual(10);
  });

  it("converts and renames on the public route when imperial is chosen", async () => {
    const { body } = await service.request("/api/public/v1/weather/current?lat=51.5&lon=-0.1&units=imperial");
    expect(body.data.current).toMatchObject({ units: "imperial", temperatureF: 65.8, windSpeedMph: 5.1 });
    expect(body.data.current.temperatureC).toBeUndefined();
    const forecast = await service.request("/api/public/v1/weather/forecast?lat=51.5&lon=-0.1&units=imperial");
    expect(forecast.body.data.forecast.days[0].temperatureMaxF).toEqual(expect.any(Number));
    expect(forecast.body.data.forecast.days[0].temperatureMaxC).toBeUndefined();
  });

  it("refuses missing or out-of-range public coordinates with VALIDATION_FAILED", async () => {
    for (const query of ["lat=51.5", "lon=1", "lat=100&lon=1", "lat=x&lon=1", "lat=1&lon=1&altitude=10000"]) {
      const { status, body } = await service.request(`/api/public/v1/weather/current?${query}`);
      expect(status, query).toBe(400);
      expect(body.error.code).toBe("VALIDATION_FAILED");
    }
  });
});

describe("weather switched off", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());

  it("answers SOURCE_DISABLED", async () => {
    const { status, body } = await service.request("/api/public/v1/weather/current?lat=1&lon=1");
    expect(status).toBe(503);
    expect(body.error.code).toBe("SOURCE_DISABLED");
  });
});
