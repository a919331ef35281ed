import { describe, expect, it } from "vitest";
import { COLD_FAILURE_MS } from "../../server/weather/cache.ts";
import type { WeatherView } from "../../server/weather/entry-lifecycle.ts";
import {
  advance,
  BERLIN_UPDATED_AT,
  HOUR,
  LONDON_UPDATED_AT,
  MINUTE,
  OSLO,
  rejection,
  SECOND,
  setup,
} from "../support/weather-cache-harness.ts";

describe("weather cache lifecycle", () => {
  it("first fetch: from the provider, age 0", async () => {
    const { cache, standin } = await setup();
    expect(await cache.get(OSLO, "current")).toEqual({
      value: LONDON_UPDATED_AT,
      cached: false,
      cacheAgeSeconds: 0,
      fetchedAt: "2026-11-21T12:00:00.000Z",
      stale: false,
      degraded: false,
      outcome: "miss",
    });
    expect(standin.requests).toBe(1);
  });

  it("fresh: served from the cache with its true age and no provider call, for both views", async () => {
    const { cache, standin } = await setup();
    await cache.get(OSLO, "forecast");
    advance(10 * MINUTE + 999);
    for (const view of ["current", "forecast"] as const) {
      expect(await cache.get(OSLO, view)).toMatchObject({
        cached: true,
        cacheAgeSeconds: 600,
        fetchedAt: "2026-11-21T12:00:00.000Z",
        stale: false,
      });
    }
    expect(standin.requests).toBe(1);
  });

  it("expired, revalidated: If-Modified-Since carries the stored Last-Modified; 304 keeps the value at age 0", async () => {
    const { cache, standin } = await setup();
    await cache.get(OSLO, "current");
    const lastModified = "Sat, 21 Nov 2026 12:00:00 GMT";
    advance(40 * MINUTE); // past the recorded 31 min 52 s
    const revalidated = await cache.get(OSLO, "current");
    expect(standin.received[1]!.headers["if-modified-since"]).toBe(lastModified);
    expect(revalidated).toEqual({
      value: LONDON_UPDATED_AT,
      cached: true,
      cacheAgeSeconds: 0,
      fetchedAt: "2026-11-21T12:40:00.000Z",
      stale: false,
      degraded: false,
      outcome: "revalidated",
    });
    advance(5 * MINUTE);
    expect(await cache.get(OSLO, "current")).toMatchObject({ cacheAgeSeconds: 300 });
    expect(standin.requests).toBe(2);
  });

  it("expired, refreshed: a new payload replaces the old one", async () => {
    const { cache, standin } = await setup();
    await cache.get(OSLO, "forecast");
    advance(40 * MINUTE);
    standin.publish("complete-berlin-2022-08-02.json");
    expect(await cache.get(OSLO, "forecast")).toMatchObject({
      value: BERLIN_UPDATED_AT,
      cached: false,
      cacheAgeSeconds: 0,
      stale: false,
      // A held copy checked with MET, whatever MET answered: as the lookup metric counts it and the log line says it.
      outcome: "revalidated",
    });
    expect(await cache.get(OSLO, "current")).toMatchObject({ value: BERLIN_UPDATED_AT, cached: true, outcome: "hit" });
    expect(standin.requests).toBe(2);
  });

  it("stale served: provider failing after the TTL gives the copy, stale and degraded, with its real age", async () => {
    const { cache, standin } = await setup();
    await cache.get(OSLO, "current");
    advance(40 * MINUTE);
    standin.setMode("server-error");
    expect(await cache.get(OSLO, "current")).toEqual({
      value: LONDON_UPDATED_AT,
      cached: true,
      cacheAgeSeconds: 2400,
      fetchedAt: "2026-11-21T12:00:00.000Z",
      stale: true,
      degraded: true,
      outcome: "stale",
    });
  });

  it("stale served also when MET's new document is unusable", async () => {
    const { cache, standin } = await setup();
    await cache.get(OSLO, "current");
    advance(40 * MINUTE);
    standin.setMode("invalid-json");
    standin.publish();
    expect(await cache.get(OSLO, "current")).toMatchObject({ value: LONDON_UPDATED_AT, stale: true, degraded: true });
  });

  it("unservable: no copy and a failing provider throws the provider's error", async () => {
    const { cache, standin } = await setup({ timeoutMs: 100 });
    standin.setMode("rate-limited");
    expect((await rejection(cache.get(OSLO, "current"))).code).toBe("UPSTREAM_UNAVAILABLE");
    standin.setMode("hang");
    advance(COLD_FAILURE_MS); // past the short memory of the cold point's failure
    expect((await rejection(cache.get(OSLO, "forecast"))).code).toBe("UPSTREAM_TIMEOUT");
  });

  const maxStale: Array<[WeatherView, number]> = [
    ["current", 22_200 * SECOND],
    ["forecast", 90_000 * SECOND],
  ];
  for (const [view, maxStaleMs] of maxStale) {
    it(`${view}: a copy exactly ${maxStaleMs / SECOND} s old is served stale; one second older gives the error`, async () => {
      const { cache, standin } = await setup();
      await cache.get(OSLO, view);
      standin.setMode("server-error");
      advance(maxStaleMs);
      expect(await cache.get(OSLO, view)).toMatchObject({
        stale: true,
        degraded: true,
        cacheAgeSeconds: maxStaleMs / SECOND,
      });
      advance(SECOND);
      expect((await rejection(cache.get(OSLO, view))).code).toBe("UPSTREAM_UNAVAILABLE");
    });
  }

  it("the current view's stale limit does not cut the forecast view's", async () => {
    const { cache, standin } = await setup();
    await cache.get(OSLO, "forecast");
    standin.setMode("server-error");
    advance(22_201 * SECOND);
    expect((await rejection(cache.get(OSLO, "current"))).code).toBe("UPSTREAM_UNAVAILABLE");
    expect(await cache.get(OSLO, "forecast")).toMatchObject({ stale: true, cacheAgeSeconds: 22_201 });
  });

  it("while the provider fails, a stale point asks it again only once a minute", async () => {
    const { cache, standin } = await setup();
    await cache.get(OSLO, "current");
    advance(40 * MINUTE);
    standin.setMode("server-error");
    await cache.get(OSLO, "current");
    advance(59 * SECOND);
    expect(await cache.get(OSLO, "current")).toMatchObject({ stale: true, cacheAgeSeconds: 2459 });
    expect(standin.requests).toBe(2);
    standin.setMode("normal");
    advance(SECOND);
    expect(await cache.get(OSLO, "current")).toMatchObject({ stale: false, cacheAgeSeconds: 0 });
    expect(standin.requests).toBe(3);
  });
});

describe("weather cache TTL", () => {
  // [view, Expires minus fetch time (null: no Expires header), TTL the cache must apply]
  const clamps: Array<[WeatherView, number | null, number]> = [
    ["current", 1 * MINUTE, 5 * MINUTE],
    ["current", 10 * HOUR, 1 * HOUR],
    ["current", null, 10 * MINUTE],
    ["forecast", 1 * MINUTE, 15 * MINUTE],
    ["forecast", 10 * HOUR, 6 * HOUR],
    ["forecast", null, 1 * HOUR],
    ["current", 20 * MINUTE, 20 * MINUTE],
    ["forecast", 20 * MINUTE, 20 * MINUTE],
  ];
  for (const [view, expiresAfterMs, ttlMs] of clamps) {
    const expires = expiresAfterMs === null ? "no Expires" : `Expires +${expiresAfterMs / MINUTE} min`;
    it(`${view}, ${expires}: fresh until ${ttlMs / MINUTE} min, then asks the provider`, async () => {
      const { cache, standin } = await setup({ standin: { expiresAfterMs } });
      await cache.get(OSLO, view);
      advance(ttlMs - 1);
      expect(await cache.get(OSLO, view)).toMatchObject({ cached: true });
      expect(standin.requests).toBe(1);
      advance(1);
      expect(await cache.get(OSLO, view)).toMatchObject({ cached: true, cacheAgeSeconds: 0 });
      expect(standin.requests).toBe(2);
    });
  }
});
