import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CACHE_NAMES } from "../../server/observability/metrics.ts";
import { removeEconomicsDataDirs, SAMPLE_INGESTED_AT, sampleDataDir } from "../support/economics-index.ts";
import { type MetStandin, startMetStandin } from "../support/met-standin.ts";
import { declaredFamilies, parseExposition, sampleValue } from "../support/prometheus-exposition.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";

const METRICS = "/api/v1/admin/metrics";
const PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
/** Upstream calls are labelled with the source id, never the configured host. */
const MET = "met-norway-locationforecast";

describe("Prometheus metrics for operators", () => {
  const clock = fakeClock();
  let met: MetStandin;
  let service: RunningService;
  let operator: string;

  beforeAll(async () => {
    met = await startMetStandin({ now: clock.now });
    service = await startService({ clock, weatherBaseUrl: met.url, seedDataDir: await sampleDataDir() });
    operator = service.createKey(["operator"]);
  });
  afterAll(async () => {
    await service.close();
    await met.close();
    removeEconomicsDataDirs();
  });

  const scrape = async () => {
    const response = await fetch(`${service.url}${METRICS}`, { headers: { authorization: `Bearer ${operator}` } });
    const text = await response.text();
    return { response, text, samples: parseExposition(text) };
  };

  it("counts answers and their latency by route name and status", async () => {
    const weather = "/api/public/v1/weather/current?lat=59.91&lon=10.75";
    expect((await service.request(weather)).status).toBe(200);
    expect((await service.request(weather)).status).toBe(200);
    expect((await service.request("/api/public/v1/economics/calendar?from=2026-06-01&to=2026-06-30")).status).toBe(200);
    expect((await service.request("/api/v1/no-such-path")).status).toBe(404);

    const { response, samples } = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(PROMETHEUS_TEXT);
    expect(response.headers.get("cache-control")).toBe("no-store");

    const expected = [
      { route: "public.weather.current", status: "200", count: 2 },
      { route: "public.economics.calendar", status: "200", count: 1 },
      { route: "unmatched", status: "404", count: 1 },
    ];
    for (const { route, status, count } of expected) {
      const labels = { route, status };
      expect(sampleValue(samples, "service_http_request_duration_seconds_count", labels)).toBe(count);
      expect(sampleValue(samples, "service_http_request_duration_seconds_bucket", { ...labels, le: "+Inf" })).toBe(
        count,
      );
      expect(sampleValue(samples, "service_http_request_duration_seconds_sum", labels)).toBeGreaterThan(0);
      const buckets = samples.filter(
        (sample) =>
          sample.name === "service_http_request_duration_seconds_bucket" &&
          sample.labels.route === route &&
          sample.labels.status === status,
      );
      expect(buckets.length).toBeGreaterThan(10);
      // Cumulative buckets never decrease.
      for (const [index, bucket] of buckets.entries()) {
        expect(bucket.value).toBeGreaterThanOrEqual(buckets[index - 1]?.value ?? 0);
      }
    }
    // The scrape counts itself once its answer is sent: seen by the next scrape.
    expect(
      sampleValue(samples, "service_http_request_duration_seconds_count", { route: "v1.admin.metrics" }),
    ).toBeUndefined();
    expect(
      sampleValue((await scrape()).samples, "service_http_request_duration_seconds_count", {
        route: "v1.admin.metrics",
        status: "200",
      }),
    ).toBe(1);
  });

  it("counts weather cache hits, misses, revalidations and stale serves, and MET calls by outcome", async () => {
    const lookups = async () => {
      const { samples } = await scrape();
      const outcome = (name: string) => sampleValue(samples, "service_weather_cache_lookups_total", { outcome: name });
      const upstream = (name: string) =>
        sampleValue(samples, "service_upstream_requests_total", { upstream: MET, outcome: name }) ?? 0;
      return {
        hit: outcome("hit"),
        miss: outcome("miss"),
        revalidated: outcome("revalidated"),
        stale: outcome("stale"),
        ok: upstream("ok"),
        httpStatus: upstream("http-status"),
        timeout: upstream("timeout"),
      };
    };
    const before = await lookups();
    const where = "/api/public/v1/weather/forecast?lat=48.5&lon=2.5";

    expect((await service.request(where)).body.meta).toMatchObject({ cached: false });
    expect((await service.request(where)).body.meta).toMatchObject({ cached: true, stale: false });
    // Past the copy's time to live (MET's Expires, 31 min 52 s after its Date): asked again with If-Modified-Since.
    clock.advance(32 * 60_000);
    expect((await service.request(where)).body.meta).toMatchObject({ cached: true, cacheAgeSeconds: 0 });
    clock.advance(33 * 60_000);
    met.setMode("server-error");
    try {
      expect((await service.request(where)).body.meta).toMatchObject({ stale: true });
    } finally {
      met.setMode("normal");
    }

    const after = await lookups();
    expect(after.hit! - before.hit!).toBe(1);
    expect(after.miss! - before.miss!).toBe(1);
    expect(after.revalidated! - before.revalidated!).toBe(1);
    expect(after.stale! - before.stale!).toBe(1);
    expect(after.ok - before.ok).toBe(2);
    expect(after.httpStatus - before.httpStatus).toBe(1);
  });

  it("counts a MET request that times out under its own outcome", async () => {
    const timeouts = async () =>
      sampleValue((await scrape()).samples, "service_upstream_requests_total", { upstream: MET, outcome: "timeout" }) ??
      0;
    const before = await timeouts();
    met.setMode("hang");
    try {
      const answer = await service.request("/api/public/v1/weather/current?lat=40.5&lon=3.5");
      expect(answer.status).toBe(504);
    } finally {
      met.setMode("normal");
    }
    expect(await timeouts()).toBe(before + 1);
  });

  it("reads the index generation, its age and the ledger's runs by outcome when scraped", async () => {
    const { samples } = await scrape();
    const published = Date.parse(SAMPLE_INGESTED_AT);
    expect(sampleValue(samples, "service_index_generation")).toBe(published / 1000);
    expect(sampleValue(samples, "service_index_age_seconds")).toBe((clock.now() - published) / 1000);
    expect(sampleValue(samples, "service_ingestion_runs", { outcome: "succeeded" })).toBe(1);
    for (const outcome of ["running", "partial", "failed"])
      expect(sampleValue(samples, "service_ingestion_runs", { outcome })).toBe(0);

    clock.advance(90_000);
    const later = (await scrape()).samples;
    expect(sampleValue(later, "service_index_age_seconds")).toBe((clock.now() - published) / 1000);
  });

  it("includes the process's own metrics", async () => {
    const { text, samples } = await scrape();
    for (const family of [
      "process_cpu_user_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
      "nodejs_eventloop_lag_seconds",
      "nodejs_gc_duration_seconds",
    ]) {
      expect(declaredFamilies(text)).toContain(family);
    }
    expect(sampleValue(samples, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
  });

  it("answers everyone without an operator key exactly like an unregistered path", async () => {
    const unregistered = await service.request("/api/v1/admin/no-such-path");
    const callers: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${service.createKey(["weather:read", "economics:read"])}` },
      { "x-api-key": service.createKey(["operator"], { revoked: true }) },
      { authorization: `Bearer ${service.createKey(["operator"], { environment: "production" })}` },
      { authorization: "Bearer not-a-key" },
    ];
    for (const headers of callers) {
      const answer = await service.request(METRICS, { headers });
      expect(answer.status).toBe(404);
      expect(answer.body.error).toMatchObject({
        code: unregistered.body.error.code,
        message: unregistered.body.error.message,
      });
      expect([...answer.headers.keys()].sort()).toEqual([...unregistered.headers.keys()].sort());
      expect(answer.text).not.toContain("service_http_request_duration_seconds_count");
    }
  });
});

describe("metrics where there is no index", () => {
  it("leave the index gauges without a sample, count no runs in an empty store, and none when no store is bound", async () => {
    const empty = await startService();
    const unbound = await startService({ durableStorage: false });
    try {
      for (const [service, runs] of [
        [empty, 0],
        [unbound, undefined],
      ] as const) {
        const operator = service.createKey(["operator"]);
        const response = await fetch(`${service.url}${METRICS}`, { headers: { "x-api-key": operator } });
        expect(response.status).toBe(200);
        const text = await response.text();
        const samples = parseExposition(text);
        expect(declaredFamilies(text)).toContain("service_index_generation");
        expect(sampleValue(samples, "service_index_generation")).toBeUndefined();
        expect(sampleValue(samples, "service_index_age_seconds")).toBeUndefined();
        expect(sampleValue(samples, "service_ingestion_runs", { outcome: "succeeded" })).toBe(runs);
        // No weather source configured: its lookups are still exposed, at zero.
        expect(sampleValue(samples, "service_weather_cache_lookups_total", { outcome: "hit" })).toBe(0);
      }
    } finally {
      await empty.close();
      await unbound.close();
    }
  });
});

describe("the bytes each bounded cache holds", () => {
  it("are reported for every cache, read when scraped", async () => {
    // A service of its own, with a clock that stays put: nothing it keeps turns dead between two scrapes.
    const clock = fakeClock();
    const met = await startMetStandin({ now: clock.now });
    const service = await startService({ clock, weatherBaseUrl: met.url, seedDataDir: await sampleDataDir() });
    try {
      const operator = service.createKey(["operator"]);
      const bytesOf = async () => {
        const response = await fetch(`${service.url}${METRICS}`, { headers: { authorization: `Bearer ${operator}` } });
        const samples = parseExposition(await response.text());
        return Object.fromEntries(
          CACHE_NAMES.map((cache) => [cache, sampleValue(samples, "service_cache_bytes", { cache })]),
        );
      };
      const empty = await bytesOf();
      for (const cache of CACHE_NAMES) expect(empty[cache], cache).toBe(0);

      const point = "/api/public/v1/weather/forecast?lat=61.5&lon=9.25";
      const calendar = "/api/public/v1/economics/calendar?from=2026-07-01&to=2026-07-31";
      for (const path of [point, point, calendar, calendar]) {
        expect((await service.request(path, { headers: { "accept-encoding": "gzip" } })).status).toBe(200);
      }
      const filled = await bytesOf();
      for (const cache of CACHE_NAMES) expect(filled[cache], cache).toBeGreaterThan(0);

      expect((await service.request("/api/public/v1/economics/calendar?from=2026-08-01&to=2026-08-31")).status).toBe(
        200,
      );
      const after = await bytesOf();
      expect(after.answers).toBeGreaterThan(filled.answers!);
      expect(after.weather_payloads).toBe(filled.weather_payloads);
    } finally {
      await service.close();
      await met.close();
      removeEconomicsDataDirs();
    }
  });
});
