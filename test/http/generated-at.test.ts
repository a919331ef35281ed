import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetStandin, startMetStandin } from "../support/met-standin.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";

/** `meta.generatedAt` is when the response was built (spec), not when its request arrived. */
describe("generatedAt", () => {
  const clock = fakeClock();
  let met: MetStandin;
  let service: RunningService;

  beforeAll(async () => {
    // MET's answer takes time: the clock runs on by two seconds each time the stand-in reads it while answering.
    met = await startMetStandin({
      now: () => {
        clock.advance(2_000);
        return clock.now();
      },
    });
    service = await startService({ clock, weatherBaseUrl: met.url });
  });
  afterAll(async () => {
    await service.close();
    await met.close();
  });

  it("of a first weather fetch is not before the fetch it reports", async () => {
    const arrival = clock.now();
    const { status, body } = await service.request("/api/public/v1/weather/current?lat=59.91&lon=10.75");
    expect(status).toBe(200);
    expect(Date.parse(body.meta.fetchedAt)).toBeGreaterThan(arrival);
    expect(Date.parse(body.meta.generatedAt)).toBeGreaterThanOrEqual(Date.parse(body.meta.fetchedAt));
    expect(body.meta.generatedAt).toBe(new Date(clock.now()).toISOString());
  });

  it("of an answer kept from earlier is the time of this response", async () => {
    clock.advance(60_000);
    const { body } = await service.request("/api/public/v1/weather/current?lat=59.91&lon=10.75");
    expect(body.meta.cached).toBe(true);
    expect(body.meta.generatedAt).toBe(new Date(clock.now()).toISOString());
  });
});
