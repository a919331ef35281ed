import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createWeatherCache } from "../../server/weather/cache.ts";
import { createMetClient } from "../../server/weather/met-client.ts";
import { createRateGate } from "../../server/weather/rate-gate.ts";
import { RATE_LIMITED_RETRY_AFTER_SECONDS, startMetStandin } from "../support/met-standin.ts";
import {
  advance,
  clock,
  HOUR,
  MINUTE,
  OSLO,
  rejection,
  SECOND,
  START,
  setup,
} from "../support/weather-cache-harness.ts";

const coldPoints = (count: number) => Array.from({ length: count }, (_, i) => ({ lat: 40 + i / 100, lon: 5 }));

describe("weather upstream discipline as MET receives it", () => {
  it("60 cold points at once arrive at MET no more than 20 within any second, on real time", async () => {
    // The gate's wait is unbounded here (this is about arrivals, not the bound), so a loaded machine cannot refuse any.
    const standin = await startMetStandin({ now: Date.now });
    try {
      const client = createMetClient({
        baseUrl: standin.url,
        userAgent: "discipline-test/1 ops@example.org",
        timeoutMs: 5000,
        maxBytes: 1_000_000,
      });
      const cache = createWeatherCache({
        client,
        parse: (body) => body,
        now: Date.now,
        rateGate: createRateGate({ now: Date.now, sleep, maxWaitMs: 20_000 }),
      });
      const results = await Promise.allSettled(coldPoints(60).map((point) => cache.get(point, "current")));
      expect(results.filter((result) => result.status === "fulfilled").length).toBe(60);
      const arrivals = standin.received.map((request) => request.at).sort((a, b) => a - b);
      for (const at of arrivals)
        expect(arrivals.filter((other) => other >= at && other < at + SECOND).length).toBeLessThanOrEqual(20);
    } finally {
      await standin.close();
    }
  });

  it("MET's 429 with Retry-After stops every request of the process for as long as it says, cold points included", async () => {
    const { cache, standin } = await setup();
    standin.setMode("throttled");
    const first = await rejection(cache.get(OSLO, "current"));
    expect(first.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(first.retryAfterMs).toBe(RATE_LIMITED_RETRY_AFTER_SECONDS * SECOND);
    standin.setMode("normal");
    for (const point of coldPoints(5)) {
      const refused = await rejection(cache.get(point, "forecast"));
      expect(refused.code).toBe("UPSTREAM_UNAVAILABLE");
      expect(refused.retryAfterMs).toBeGreaterThan(100 * SECOND);
    }
    expect(await rejection(cache.get(OSLO, "current"))).toMatchObject({ code: "UPSTREAM_UNAVAILABLE" });
    expect(standin.requests).toBe(1);
    advance(RATE_LIMITED_RETRY_AFTER_SECONDS * SECOND);
    expect(await cache.get(OSLO, "current")).toMatchObject({ cached: false, stale: false });
    expect(standin.requests).toBe(2);
  });

  it("a Retry-After of a day is honoured for an hour, after which one request asks MET again", async () => {
    const { cache, standin } = await setup();
    standin.setMode("throttled-for-a-day");
    expect(await rejection(cache.get(OSLO, "current"))).toMatchObject({ retryAfterMs: HOUR });
    standin.setMode("normal");
    const meanwhile = await rejection(cache.get(coldPoints(1)[0]!, "current"));
    expect(meanwhile.retryAfterMs).toBeLessThanOrEqual(HOUR);
    expect(standin.requests).toBe(1);
    advance(HOUR);
    expect(await cache.get(OSLO, "current")).toMatchObject({ cached: false, stale: false });
    expect(standin.requests).toBe(2);
  });

  it("a point that failed asks MET again as soon as MET has answered any request, not a minute later", async () => {
    const { cache, standin } = await setup();
    const [a, b] = [
      { lat: 1, lon: 1 },
      { lat: 2, lon: 2 },
    ];
    await cache.get(a, "current");
    await cache.get(b, "current");
    advance(40 * MINUTE);
    standin.setMode("server-error");
    expect(await cache.get(a, "current")).toMatchObject({ stale: true, degraded: true });
    standin.setMode("normal");
    advance(SECOND);
    expect(await cache.get(b, "current")).toMatchObject({ stale: false });
    expect(await cache.get(a, "current")).toMatchObject({ stale: false, degraded: false, cacheAgeSeconds: 0 });
    expect(standin.requests).toBe(5);
  });

  it("requests that cannot get an upstream slot within the gate's bound fail at once with a Retry-After, never queue without end", async () => {
    const { cache } = await setup();
    const results = await Promise.allSettled(coldPoints(120).map((point) => cache.get(point, "current")));
    const refused = results
      .filter((result) => result.status === "rejected")
      .map((result) => (result as PromiseRejectedResult).reason);
    expect(results.length - refused.length).toBeGreaterThanOrEqual(20);
    expect(refused.length).toBeGreaterThan(0);
    for (const error of refused)
      expect(error).toMatchObject({ code: "UPSTREAM_UNAVAILABLE", retryAfterMs: expect.any(Number) });
    expect(clock() - START).toBeLessThan(5 * SECOND);
  });
});
