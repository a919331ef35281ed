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

  it("name the method, path, query without secrets, client, key id, bytes sent and whether the answer was kept or built", async () => {
    const key = service.createKey(["weather:read"]);
    const keyId = key.split("_")[1];
    const headers = { authorization: `Bearer ${key}` };
    const path = "/api/v1/economics/series";
    const built = await service.request(`${path}?limit=2&api_key=${key}`, { headers });
    const kept = await service.request(`${path}?limit=2&api_key=${key}`, { headers });
    const head = await service.request(`${path}?limit=2&api_key=${key}`, { headers, method: "HEAD" });
    const lineOf = (response: { headers: Headers }) =>
      requestLines().find((line) => line.requestId === response.headers.get("x-request-id"));
    expect(lineOf(built)).toMatchObject({
      method: "GET",
      path,
      query: "limit=2&api_key=REDACTED",
      client: "127.0.0.1",
      route: "v1.economics.series",
      status: built.status,
      bytes: Number(built.headers.get("content-length")),
      cache: "built",
    });
    expect(lineOf(built)!.bytes).toBeGreaterThan(0);
    expect(lineOf(kept)).toMatchObject({ status: kept.status, cache: "kept" });
    // A public route reads no key; a credentialed one names the key's id.
    expect(lineOf(built)).not.toHaveProperty("keyId");
    const weather = await service.request("/api/v1/weather/current?lat=59.91&lon=10.75", { headers });
    expect(lineOf(weather)).toMatchObject({ status: 200, route: "v1.weather.current", keyId });
    expect(lineOf(head)).toMatchObject({ method: "HEAD", bytes: 0 });
    const secret = key.slice(key.lastIndexOf("_") + 1);
    expect(JSON.stringify(service.logEntries)).not.toContain(secret);
    const publicLine = requestLines().find((line) => line.route === "unmatched");
    expect(publicLine).not.toHaveProperty("keyId");
    expect(publicLine).toMatchObject({ method: "GET", path: "/api/v1/no-such-path", query: "", client: "127.0.0.1" });
  });

  it("name the cause of a MET request that could not connect (ECONNREFUSED), never MET's body", async () => {
    // Port 1 on the loopback: nothing listens there, so the connection is refused.
    const unreachable = await startService({ clock, weatherBaseUrl: "http://127.0.0.1:1" });
    try {
      const failed = await unreachable.request("/api/public/v1/weather/current?lat=10.5&lon=20.5");
      expect(failed.status).toBe(503);
      const warning = unreachable.logEntries.find((entry) => entry.level === "warn" && entry.upstream === "met");
      expect(warning).toMatchObject({
        code: "UPSTREAM_UNAVAILABLE",
        cause: "ECONNREFUSED",
        msg: "MET could not be reached (ECONNREFUSED)",
      });
      expect(failed.text).not.toContain("ECONNREFUSED");
    } finally {
      await unreachable.close();
    }
  });

  it("name what the weather cache's lookup found, as its metric counts it: miss, hit, revalidated, stale", async () => {
    met.setMode("normal");
    const where = "/api/public/v1/weather/current?lat=48.51&lon=2.51";
    const outcomeOf = async () => {
      const response = await service.request(where);
      return requestLines().find((line) => line.requestId === response.headers.get("x-request-id"))?.cache;
    };
    expect(await outcomeOf()).toBe("miss");
    clock.advance(2_000);
    expect(await outcomeOf()).toBe("hit");
    // Past the copy's time to live (MET's Expires, 31 min 52 s after its Date): MET confirms it with a 304.
    clock.advance(32 * 60_000);
    expect(await outcomeOf()).toBe("revalidated");
    clock.advance(33 * 60_000);
    met.setMode("server-error");
    try {
      expect(await outcomeOf()).toBe("stale");
    } finally {
      met.setMode("normal");
    }
  });
});
