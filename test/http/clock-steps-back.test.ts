import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleDataDir } from "../support/economics-index.ts";
import { type MetStandin, startMetStandin } from "../support/met-standin.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";

const HOUR = 3_600_000;

describe("a wall clock that steps backwards, as NTP can", () => {
  const clock = fakeClock("2026-11-21T12:00:00Z");
  let met: MetStandin;
  let service: RunningService;
  beforeAll(async () => {
    met = await startMetStandin({ now: clock.now });
    service = await startService({ clock, weatherBaseUrl: met.url, seedDataDir: await sampleDataDir() });
  });
  afterAll(async () => {
    await service.close();
    await met.close();
  });

  it("keeps answering weather and economics: no hang, no spin", async () => {
    const key = service.createKey(["weather:read", "economics:read"]);
    const headers = { authorization: `Bearer ${key}` };
    const calendar = "/api/public/v1/economics/calendar";
    expect((await service.request("/api/public/v1/weather/current?lat=59.91&lon=10.75")).status).toBe(200);
    const later = (await service.request(calendar)).body;

    clock.advance(-2 * HOUR);
    const started = performance.now();
    const weather = await service.request("/api/v1/weather/forecast?lat=59.9139&lon=10.7522&tz=Europe/Oslo", {
      headers,
    });
    expect(weather.status).toBe(200);
    const earlier = await service.request(calendar);
    expect(earlier.status).toBe(200);
    // The default window is the earlier clock's (its days), not the one kept from the later clock.
    expect(earlier.body.meta.generatedAt).toBe(new Date(clock.now()).toISOString());
    expect(earlier.body.data).toEqual(later.data);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
