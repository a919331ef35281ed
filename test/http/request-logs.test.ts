import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetStandin, startMetStandin } from "../support/met-standin.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";

describe("structured logs", () => {
  const clock = fakeClock();
  let met: MetStandin;
  let service: RunningService;
  beforeAll(async () => {
    met = await startMetStandin({ now: clock.now });
    service = await startService({ clock, weatherBaseUrl: met.url });
  });
  afterAll(async () => {
    await service.close();
    await met.close();
  });

  const requestLines = () => service.logEntries.filter((entry) => entry.msg === "request");

  it("write one JSON line per request: id, route name, status, duration and the cache's answer", async () => {
    const first = await service.request("/api/public/v1/weather/current?lat=59.91&lon=10.75");
    const second = await service.request("/api/public/v1/weather/current?lat=59.91&lon=10.75");
    await service.request("/api/v1/no-such-path");
    const lines = requestLines().slice(-3);
    expect(lines[0]).toMatchObject({
      level: "info",
      requestId: first.headers.get("x-request-id"),
      route: "public.weather.current",
      status: 200,
      cache: "miss",
    });
    expect(lines[1]).toMatchObject({ requestId: second.headers.get("x-request-id"), status: 200, cache: "hit" });
    expect(lines[2]).toMatchObject({ route: "unmatched", status: 404 });
    for (const line of lines) expect(line.durationMs).toEqual(expect.any(Number));
  });

  it("write a warning for a failed MET request, naming its code and point but never MET's body", async () => {
    met.setMode("server-error");
    const failed = await service.request("/api/public/v1/weather/current?lat=10.5&lon=20.5");
    expect(failed.status).toBe(503);
    const warning = service.logEntries.find((entry) => entry.level === "warn" && entry.upstream === "met");
    expect(warning).toMatchObject({ code: "UPSTREAM_UNAVAILABLE", lat: 10.5, lon: 20.5, msg: "MET answered HTTP 500" });
    expect(JSON.stringify(service.logEntries)).not.toContain("<html>");
    expect(requestLines().at(-1)).toMatchObject({ status: 503, route: "public.weather.current" });
  });
});
