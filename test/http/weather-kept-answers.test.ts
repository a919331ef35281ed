import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetStandin, startMetStandin } from "../support/met-standin.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";

/**
 * A weather answer from a fresh cached copy is kept and served again (only `requestId` and `generatedAt` change) until
 * its cache age moves on a second, and never once the copy it was built from is no longer the point's fresh one.
 */
describe("kept weather answers", () => {
  // Half a second past a whole second, so that the copy's expiry (MET's Expires is whole seconds) falls inside one.
  const clock = fakeClock("2026-11-21T12:00:00.500Z");
  let met: MetStandin;
  let service: RunningService;
  let point = 0;
  const freshPoint = () => `lat=${(48 + ++point / 100).toFixed(2)}&lon=2.35`;
  const cacheOutcomeOf = (requestId: string | null) =>
    service.logEntries.find((entry) => entry.requestId === requestId)?.cache;

  beforeAll(async () => {
    // Expires 30 min after Date: MET's Date is whole seconds, so the copy expires at 12:30:00.000, 29 min 59.5 s after its fetch.
    met = await startMetStandin({ now: clock.now, expiresAfterMs: 30 * 60_000 });
    service = await startService({ clock, weatherBaseUrl: met.url });
  });
  afterAll(async () => {
    await service.close();
    await met.close();
  });

  it("are the same answer, with a request's own id and time, until the cache age moves on a second", async () => {
    const path = `/api/public/v1/weather/current?${freshPoint()}`;
    await service.request(path);
    clock.advance(2_000);
    const built = await service.request(path);
    const kept = await service.request(path);
    expect(cacheOutcomeOf(built.headers.get("x-request-id"))).toBe("hit");
    expect(cacheOutcomeOf(kept.headers.get("x-request-id"))).toBe("kept");
    expect(kept.body.data).toEqual(built.body.data);
    expect(kept.headers.get("etag")).toBe(built.headers.get("etag"));
    expect(kept.body.meta.requestId).not.toBe(built.body.meta.requestId);
    expect(kept.body.meta).toMatchObject({ cached: true, cacheAgeSeconds: 2 });

    clock.advance(999);
    expect((await service.request(path)).body.meta).toMatchObject({ cacheAgeSeconds: 2 });
    clock.advance(1);
    expect((await service.request(path)).body.meta).toMatchObject({ cached: true, cacheAgeSeconds: 3 });
  });

  it("are not served once the copy expired, even within the second they were kept for", async () => {
    clock.set("2026-11-21T13:00:00.500Z");
    const path = `/api/public/v1/weather/forecast?${freshPoint()}`;
    await service.request(path);
    const callsAfterFetch = met.requests;
    clock.set("2026-11-21T13:29:59.600Z");
    const built = await service.request(path);
    expect((await service.request(path)).body.meta).toMatchObject({ cached: true, cacheAgeSeconds: 1799 });
    expect(built.body.meta).toMatchObject({ cacheAgeSeconds: 1799 });

    clock.set("2026-11-21T13:30:00.200Z");
    const after = await service.request(path);
    expect(met.requests).toBe(callsAfterFetch + 1);
    expect(after.body.meta).toMatchObject({ cacheAgeSeconds: 0 });
    expect(cacheOutcomeOf(after.headers.get("x-request-id"))).not.toBe("kept");
  });

  it("count as weather cache hits in the metrics, as the lookups they replace", async () => {
    const path = `/api/public/v1/weather/current?${freshPoint()}`;
    const hits = async () => {
      const key = service.createKey(["operator"]);
      const text = await (
        await fetch(new URL("/api/v1/admin/metrics", service.url), { headers: { authorization: `Bearer ${key}` } })
      ).text();
      return Number(/^service_weather_cache_lookups_total\{outcome="hit"\} (\d+)$/m.exec(text)?.[1]);
    };
    await service.request(path);
    const before = await hits();
    for (let i = 0; i < 5; i++) await service.request(path);
    expect(await hits()).toBe(before + 5);
  });
});
