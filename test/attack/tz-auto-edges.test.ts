import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetStandin, startMetStandin } from "../support/met-standin.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";

/**
 * `tz=auto` on the weather forecasts (server/weather/location-params.ts, server/places/point-zone.ts) at points a
 * zone lookup finds hard: the poles, the antimeridian from both sides, open sea, the prime meridian at the equator,
 * -0, and points that round across a boundary. Every body is checked against the route's schema by `service.request`.
 */

const EDGE_POINTS = [
  "lat=90&lon=0",
  "lat=-90&lon=0",
  "lat=90&lon=180",
  "lat=-90&lon=-180",
  "lat=0&lon=180",
  "lat=0&lon=-180",
  "lat=-0&lon=-0",
  "lat=0&lon=0",
  "lat=89.99999&lon=179.99999",
  "lat=-89.99999&lon=-179.99999",
  "lat=0&lon=172.5",
  "lat=0&lon=-172.5",
  "lat=0.004&lon=-0.004",
  "lat=78.22&lon=15.65",
  "lat=-54.28&lon=-36.51",
  "lat=-77.85&lon=166.67",
  "lat=%2B45&lon=.5",
];

describe("tz=auto at the edges of the map", () => {
  let met: MetStandin;
  let service: RunningService;
  let key: string;

  beforeAll(async () => {
    const clock = fakeClock();
    met = await startMetStandin({ now: clock.now });
    service = await startService({ clock, weatherBaseUrl: met.url });
    key = service.createKey(["weather:read"]);
  });
  afterAll(async () => {
    await service.close();
    await met.close();
  });

  it.each(
    EDGE_POINTS,
  )("answers %s on both forecast routes with a real IANA zone and contract-valid days", async (where) => {
    const publicAnswer = await service.request(`/api/public/v1/weather/forecast?${where}&tz=auto`);
    expect(publicAnswer.status, publicAnswer.text.slice(0, 200)).toBe(200);
    const zone = publicAnswer.body.data.forecast.timeZone as string;
    expect(() => new Intl.DateTimeFormat("en", { timeZone: zone })).not.toThrow();
    expect(publicAnswer.body.data.forecast.days.length).toBeGreaterThan(0);
    const credentialed = await service.request(`/api/v1/weather/forecast?${where}&tz=auto`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(credentialed.status, credentialed.text.slice(0, 200)).toBe(200);
    expect(() => new Intl.DateTimeFormat("en", { timeZone: credentialed.body.data.timeZone })).not.toThrow();
  });

  it("reads tz=auto trimmed, as every other tz value", async () => {
    const plain = await service.request("/api/public/v1/weather/forecast?lat=10&lon=10&tz=auto");
    const padded = await service.request("/api/public/v1/weather/forecast?lat=10&lon=10&tz=%20AUTO%09");
    expect(padded.status, padded.text.slice(0, 200)).toBe(200);
    expect(padded.body.data.forecast.timeZone).toBe(plain.body.data.forecast.timeZone);
  });

  it("refuses tz=auto look-alikes as unknown zones, never a 500", async () => {
    for (const tz of ["autos", "auto%00", "Auto/Auto", "AUTO,UTC", "%E2%80%8Bauto"]) {
      const answer = await service.request(`/api/public/v1/weather/forecast?lat=10&lon=10&tz=${tz}`);
      expect(answer.status, tz).toBe(400);
      expect(answer.body.error.code, tz).toBe("VALIDATION_FAILED");
    }
  });
});
