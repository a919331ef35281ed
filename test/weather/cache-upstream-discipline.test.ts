import { describe, expect, it } from "vitest";
import { COLD_FAILURE_MS } from "../../server/weather/cache.ts";
import type { WeatherView } from "../../server/weather/entry-lifecycle.ts";
import { createRateGate, type RateGate } from "../../server/weather/rate-gate.ts";
import {
  advance,
  clock,
  fakeSleep,
  HOUR,
  LONDON_UPDATED_AT,
  MINUTE,
  OSLO,
  rejection,
  SECOND,
  START,
  setup,
} from "../support/weather-cache-harness.ts";

describe("weather cache upstream discipline", () => {
  it("single flight: 50 concurrent gets for one point make one provider request", async () => {
    const { cache, standin } = await setup();
    const views: WeatherView[] = ["current", "forecast"];
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => cache.get(OSLO, views[i % 2]!)));
    expect(standin.requests).toBe(1);
    expect(new Set(results.map((result) => result.value))).toEqual(new Set([LONDON_UPDATED_AT]));
  });

  it("single flight on revalidation, and points that round alike share it", async () => {
    const { cache, standin } = await setup();
    await cache.get(OSLO, "current");
    advance(40 * MINUTE);
    const near = [{ lat: 59.91391, lon: 10.75224 }, { lat: 59.913899, lon: 10.752249 }, OSLO];
    await Promise.all(Array.from({ length: 30 }, (_, i) => cache.get(near[i % 3]!, "current")));
    expect(standin.requests).toBe(2);
  });

  it("45 distinct points at once reach the provider at no more than 20 per second", async () => {
    const startedAt: number[] = [];
    const { cache, standin } = await setup({
      wrapClient: (client) => ({
        fetchLocation(request) {
          startedAt.push(clock());
          return client.fetchLocation(request);
        },
      }),
    });
    const points = Array.from({ length: 45 }, (_, i) => ({ lat: 60 + i / 100, lon: 10 }));
    const results = await Promise.all(points.map((point) => cache.get(point, "forecast")));
    expect(results.every((result) => result.value === LONDON_UPDATED_AT)).toBe(true);
    expect(standin.requests).toBe(45);
    for (const start of startedAt) {
      expect(startedAt.filter((time) => time >= start && time < start + SECOND).length).toBeLessThanOrEqual(20);
    }
    // Queued into the third second, not refused (a slot frees one second after its request finished).
    expect(Math.max(...startedAt) - START).toBeGreaterThanOrEqual(2 * SECOND);
    expect(Math.max(...startedAt) - START).toBeLessThan(3 * SECOND);
  });

  it("every provider request passes through the rate gate", async () => {
    let acquired = 0;
    const gate = createRateGate({ now: clock, sleep: fakeSleep });
    const countingGate: RateGate = {
      acquire: () => {
        acquired++;
        return gate.acquire();
      },
      pauseFor: (ms) => gate.pauseFor(ms),
    };
    const { cache, standin } = await setup({ rateGate: countingGate });
    await cache.get(OSLO, "current");
    advance(HOUR);
    await cache.get(OSLO, "current");
    standin.setMode("server-error");
    advance(HOUR);
    await cache.get(OSLO, "current");
    expect(standin.requests).toBe(3);
    expect(acquired).toBe(3);
  });

  it("holds at most maxEntries points and forgets the least recently used", async () => {
    const { cache, standin } = await setup({ maxEntries: 2 });
    const [a, b, c] = [
      { lat: 1, lon: 1 },
      { lat: 2, lon: 2 },
      { lat: 3, lon: 3 },
    ];
    await cache.get(a, "current");
    await cache.get(b, "current");
    await cache.get(a, "current"); // a is now more recent than b
    await cache.get(c, "current"); // evicts b
    expect(standin.requests).toBe(3);
    expect(await cache.get(a, "current")).toMatchObject({ cached: true });
    expect(await cache.get(c, "current")).toMatchObject({ cached: true });
    expect(standin.requests).toBe(3);
    expect(await cache.get(b, "current")).toMatchObject({ cached: false });
    expect(standin.requests).toBe(4);
  });

  it("a document the parser rejects gives UPSTREAM_INVALID_PAYLOAD and caches nothing", async () => {
    const { cache, standin } = await setup({
      parse: () => {
        throw new Error("schema says no");
      },
    });
    expect((await rejection(cache.get(OSLO, "current"))).code).toBe("UPSTREAM_INVALID_PAYLOAD");
    expect((await rejection(cache.get(OSLO, "current"))).code).toBe("UPSTREAM_INVALID_PAYLOAD");
    expect(standin.requests).toBe(1); // the cold point's failure is remembered for a short while
    advance(COLD_FAILURE_MS);
    expect((await rejection(cache.get(OSLO, "current"))).code).toBe("UPSTREAM_INVALID_PAYLOAD");
    expect(standin.requests).toBe(2);
    expect(standin.received[1]!.headers["if-modified-since"]).toBeUndefined();
  });

  it("records provider outcomes for the status route", async () => {
    const { cache, standin } = await setup();
    expect(cache.upstreamHealth()).toEqual({
      lastAttemptAt: null,
      lastSuccessAt: null,
      lastFailureAt: null,
      recentAttempts: 0,
      recentFailures: 0,
    });
    await cache.get(OSLO, "current");
    advance(HOUR);
    standin.setMode("forbidden");
    await cache.get(OSLO, "current");
    expect(cache.upstreamHealth()).toEqual({
      lastAttemptAt: "2026-11-21T13:00:00.000Z",
      lastSuccessAt: "2026-11-21T12:00:00.000Z",
      lastFailureAt: "2026-11-21T13:00:00.000Z",
      recentAttempts: 1, // the 12:00 attempt is older than the 15-minute window
      recentFailures: 1,
    });
  });
});
