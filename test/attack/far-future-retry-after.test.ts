import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetStandin, startMetStandin } from "../support/met-standin.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";

/**
 * Issue 39, item 3: one MET 429 with a far-future Retry-After stopped weather for 24 hours: points without a copy
 * answered 503 with `Retry-After: 86398`, and MET got no call even after it recovered. The service honours a
 * Retry-After for at most an hour, then one request asks MET again and its answer decides. The cap is one second here:
 * the upstream gate runs on the process's real monotonic clock, which a test cannot move on.
 */

const CAP_MS = 1000;

describe("a far-future Retry-After from MET", () => {
  const clock = fakeClock();
  let met: MetStandin;
  let service: RunningService;
  let key: string;

  beforeAll(async () => {
    met = await startMetStandin({ now: clock.now });
    service = await startService({ clock, weatherBaseUrl: met.url, weather: { maxRetryAfterMs: CAP_MS } });
    key = service.createKey(["weather:read"]);
  });
  afterAll(async () => {
    await service.close();
    await met.close();
  });

  const current = (lat: string) =>
    service.request(`/api/v1/weather/current?lat=${lat}&lon=10.75`, { headers: { authorization: `Bearer ${key}` } });

  /** Past the cap, on the upstream gate's real clock and on the service's clock (a failed point's own 10 s). */
  async function pastTheCap() {
    await sleep(CAP_MS + 100);
    clock.advance(11_000);
  }

  it("is honoured up to the cap, after which MET is asked again and weather resumes", async () => {
    met.setMode("throttled-for-a-day");
    const refused = await current("59.10");
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(CAP_MS / 1000);
    expect(met.requests).toBe(1);

    met.setMode("normal");
    await pastTheCap();
    expect((await current("59.10")).status).toBe(200);
    expect(met.requests).toBe(2);
    expect((await current("59.20")).status).toBe(200);
    expect(met.requests).toBe(3);
  });

  it("a probe that MET refuses again backs off again, for the cap at most; the next one after it decides again", async () => {
    met.setMode("throttled-for-a-day");
    expect((await current("59.30")).status).toBe(503);
    const asked = met.requests;
    await pastTheCap();
    const probe = await current("59.40");
    expect(probe.status).toBe(503);
    expect(Number(probe.headers.get("retry-after"))).toBeLessThanOrEqual(CAP_MS / 1000);
    expect(met.requests).toBe(asked + 1);

    met.setMode("normal");
    await pastTheCap();
    expect((await current("59.40")).status).toBe(200);
    expect(met.requests).toBe(asked + 2);
  });
});
