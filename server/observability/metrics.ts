import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { RELEASE_LATENCY_BUCKETS_SECONDS } from "../../schemas/release-latency.ts";
import { RUN_OUTCOMES } from "../../schemas/vocabularies.ts";
import type { IndexStorage } from "../storage/index-storage.ts";
import { countRunsByOutcome, readReleaseLatencies } from "../storage/ledger-reader.ts";
import type { UpstreamOutcome } from "../upstream/fetch-limited.ts";
import { WEATHER_LOOKUP_OUTCOMES, type WeatherLookupOutcome, type WeatherLookupRecorder } from "../weather/cache.ts";
import { RequestDurations } from "./request-durations.ts";

/**
 * One app's metrics (prom-client) on a registry of its own: tests build many apps in one process. The recording
 * functions are bound, so reporting modules can be handed them without knowing prom-client.
 */
export interface ServiceMetrics {
  /** Where a module that counts something of its own registers its metric. */
  readonly registry: Registry;
  /** One answer sent: route name (`unmatched` for unregistered paths), status, time taken. */
  recordRequest(route: string, status: number, seconds: number): void;
  recordWeatherLookup: WeatherLookupRecorder;
  /** One upstream request, by source id (hosts are configuration) and how it ended. */
  recordUpstreamCall(upstream: string, outcome: UpstreamOutcome): void;
  /** A connection closed as accepted, the listener being at its limit (SERVICE_MAX_CONNECTIONS). */
  recordDroppedConnection(): void;
  /** Adds the gauges read at scrape time from the published index and the ledger; called once, by the owning app. */
  observePublishedData(sources: PublishedDataSources): void;
  /** Adds one bounded cache to `service_cache_bytes`; `bytes` is read when scraped, so requests pay nothing. */
  observeCacheBytes(cache: CacheName, bytes: () => number): void;
  /** This app's metrics followed by the process's (CPU, memory, event loop, GC). */
  scrape(): Promise<string>;
}

export interface PublishedDataSources {
  storage: IndexStorage;
  dataDir: string;
  /** The app's clock (epoch ms), for the index's age. */
  now: () => number;
}

/** The bounded caches `service_cache_bytes` reports, each against its own bound (docs/operations.md, Metrics). */
export const CACHE_NAMES = ["answers", "compressed_answers", "weather_payloads"] as const;
export type CacheName = (typeof CACHE_NAMES)[number];

/** From a kept answer (well under a millisecond) to a request waiting out MET's time-out. */
const DURATION_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function createMetrics(): ServiceMetrics {
  const registry = new Registry();
  const processWide = processMetrics();
  // Its `_count` is the number of answers: no separate counter.
  const durations = new RequestDurations({
    name: "service_http_request_duration_seconds",
    help: "Answers sent by route name (unmatched for unregistered paths) and status (_count), and the time from a request's arrival to its answer being ready.",
    buckets: DURATION_BUCKETS_SECONDS,
    registry,
  });
  // Plain numbers on the request path, handed to prom-client when scraped: a labelled `inc` hashes its labels.
  const lookupCounts = Object.fromEntries(WEATHER_LOOKUP_OUTCOMES.map((outcome) => [outcome, 0])) as Record<
    WeatherLookupOutcome,
    number
  >;
  const lookups: Counter<"outcome"> = new Counter({
    name: "service_weather_cache_lookups_total",
    help: "Weather cache lookups by outcome: hit (fresh copy), revalidated (expired copy checked with MET), stale (expired copy served while MET fails), miss (no servable copy).",
    labelNames: ["outcome"],
    registers: [registry],
    // Every outcome exposed from the start: a rate over one never seen is 0, not absent.
    collect: () => {
      lookups.reset();
      for (const outcome of WEATHER_LOOKUP_OUTCOMES) lookups.inc({ outcome }, lookupCounts[outcome]);
    },
  });
  const upstreamCalls = new Counter({
    name: "service_upstream_requests_total",
    help: "Requests to upstream providers by source id and outcome (ok: any answer below 400, 304 included).",
    labelNames: ["upstream", "outcome"],
    registers: [registry],
  });
  const droppedConnections = new Counter({
    name: "service_http_connections_dropped_total",
    help: "Connections closed as they were accepted because the listener held its maximum (SERVICE_MAX_CONNECTIONS).",
    registers: [registry],
  });

  const cacheBytes = new Map<CacheName, () => number>();
  const cacheGauge: Gauge<"cache"> = new Gauge({
    name: "service_cache_bytes",
    help: "Bytes each bounded cache holds now, as it counts them against its bound: finished answers, compressed answers, weather payloads.",
    labelNames: ["cache"],
    registers: [registry],
    collect: () => {
      for (const [cache, bytes] of cacheBytes) cacheGauge.set({ cache }, bytes());
    },
  });

  return {
    registry,
    recordRequest: (route, status, seconds) => durations.observe(route, status, seconds),
    recordWeatherLookup: (outcome) => {
      lookupCounts[outcome]++;
    },
    recordUpstreamCall: (upstream, outcome) => upstreamCalls.inc({ upstream, outcome }),
    recordDroppedConnection: () => droppedConnections.inc(),
    observePublishedData: (sources) => registerPublishedDataGauges(registry, sources),
    observeCacheBytes: (cache, bytes) => void cacheBytes.set(cache, bytes),
    scrape: () => Registry.merge([registry, processWide]).metrics(),
  };
}

function registerPublishedDataGauges(registry: Registry, { storage, dataDir, now }: PublishedDataSources): void {
  const instantMs = (text: string | null | undefined): number | null => {
    const time = text ? Date.parse(text) : Number.NaN;
    return Number.isFinite(time) ? time : null;
  };
  // No index, no sample: an absent series says "none" where a 0 would claim an index published in 1970. (`remove`,
  // not `reset`: prom-client resets a gauge without labels to a 0 sample.)
  const generation: Gauge = new Gauge({
    name: "service_index_generation",
    help: "The published index now served, named by its publication instant in Unix seconds (the generation of log lines, as a number): the same on every instance serving the same index. Absent while none is loaded.",
    registers: [registry],
    collect: () => {
      const published = instantMs(storage.current()?.facts.publishedAt);
      if (published === null) generation.remove();
      else generation.set(published / 1000);
    },
  });
  const age: Gauge = new Gauge({
    name: "service_index_age_seconds",
    help: "Seconds since the data of the index now served was rebuilt (publishing its source checks alone does not reset it). Absent while none is loaded.",
    registers: [registry],
    collect: () => {
      const rebuilt = instantMs(storage.current()?.facts.dataRebuiltAt);
      if (rebuilt === null) age.remove();
      else age.set(Math.max(0, now() - rebuilt) / 1000);
    },
  });
  // Read from the ledger at each scrape, after a reset: no sample with no store bound. A store being replaced or damaged
  // makes this scrape say nothing of the ledger rather than fail as a whole.
  const fromLedger = <T>(metric: { reset(): void }, read: (dataDir: string) => T, apply: (found: T) => void) => {
    metric.reset();
    if (!storage.durableStorage) return;
    let found: T;
    try {
      found = read(dataDir);
    } catch {
      return;
    }
    // Outside the try: a fault in applying is a programming error, not a replaced store.
    apply(found);
  };
  const runs: Gauge<"outcome"> = new Gauge({
    name: "service_ingestion_runs",
    help: "Ingestion runs recorded in the store's ledger, by outcome (running, succeeded, partial, failed). Absent with no store bound or an unreadable store.",
    labelNames: ["outcome"],
    registers: [registry],
    collect: () =>
      fromLedger(runs, countRunsByOutcome, (counts) => {
        for (const outcome of RUN_OUTCOMES) runs.set({ outcome }, counts[outcome]);
      }),
  });
  // A release is found once, so its counts only grow.
  const latency: Histogram<"source"> = new Histogram({
    name: "service_release_latency_seconds",
    help: "Releases found by ingestion (_count) by the source of their figures, and the seconds from each release's scheduled instant to the fetch that brought its figures (date-only releases are not counted).",
    labelNames: ["source"],
    buckets: RELEASE_LATENCY_BUCKETS_SECONDS,
    registers: [registry],
    collect: () =>
      fromLedger(latency, readReleaseLatencies, (found) => {
        for (const { source, seconds } of found) latency.observe({ source }, seconds);
      }),
  });
}

/**
 * The default metrics describe the process, and each registration starts observers (GC, event loop) for its life:
 * registered once, on a registry every app's scrape includes.
 */
let processRegistry: Registry | undefined;

function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}
