import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "../observability/logger.ts";
import type { UpstreamOutcome } from "../upstream/fetch-limited.ts";
import { createWeatherCache, type WeatherCache, type WeatherLookupRecorder } from "./cache.ts";
import { createDocumentWorkerClient } from "./document-worker-client.ts";
import { MET_SOURCE } from "./provenance.ts";
import { createRateGate } from "./rate-gate.ts";
import { type PackedPayload, type StoredPayload, storedPayloadBytes, storePayload } from "./stored-payload.ts";
import type { WeatherSettings } from "./weather-settings.ts";

/** Where the weather source reports for operators' metrics (server/observability/metrics.ts implements it). */
export interface WeatherMetrics {
  recordWeatherLookup: WeatherLookupRecorder;
  /** `upstream` is the source id, never its host: hosts come from configuration, which answers do not reveal. */
  recordUpstreamCall(upstream: string, outcome: UpstreamOutcome): void;
}

/** The process's live weather source: the document worker, the process-wide rate gate and the payload cache. */
export function createMetWeatherSource(
  settings: WeatherSettings,
  now: () => number,
  options: { logger?: Logger; metrics?: WeatherMetrics } = {},
): WeatherCache<StoredPayload> {
  const { logger, metrics } = options;
  return createWeatherCache<StoredPayload, PackedPayload>({
    client: createDocumentWorkerClient({
      client: {
        baseUrl: settings.baseUrl,
        userAgent: settings.userAgent,
        timeoutMs: settings.timeoutMs,
        maxBytes: settings.maxBytes,
      },
      recordCall: metrics && ((outcome) => metrics.recordUpstreamCall(MET_SOURCE.id, outcome)),
    }),
    parse: storePayload,
    now,
    rateGate: createRateGate({
      now: () => performance.now(),
      sleep: (ms) => sleep(ms),
      maxRequests: settings.maxRequestsPerSecond,
    }),
    maxEntries: settings.maxEntries,
    maxBytes: settings.maxCacheBytes,
    maxRetryAfterMs: settings.maxRetryAfterMs,
    sizeOf: storedPayloadBytes,
    recordLookup: metrics?.recordWeatherLookup,
    onUpstreamFailure: (error, point) =>
      logger?.warn(
        {
          upstream: "met",
          code: error.code,
          ...(error.underlying === null ? {} : { cause: error.underlying }),
          lat: point.lat,
          lon: point.lon,
          retryAfterMs: error.retryAfterMs,
        },
        error.message,
      ),
  });
}
