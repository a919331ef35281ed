import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "../observability/logger.ts";
import type { ServiceMetrics } from "../observability/metrics.ts";
import { createWeatherCache, type WeatherCache } from "./cache.ts";
import { createDocumentWorkerClient } from "./document-worker-client.ts";
import { MET_SOURCE } from "./provenance.ts";
import { createRateGate } from "./rate-gate.ts";
import { type PackedPayload, type StoredPayload, storedPayloadBytes, storePayload } from "./stored-payload.ts";
import type { WeatherSettings } from "./weather-settings.ts";

/** The process's live weather source: the document worker, the process-wide rate gate and the payload cache. */
export function createMetWeatherSource(
  settings: WeatherSettings,
  now: () => number,
  options: { logger?: Logger; metrics?: Pick<ServiceMetrics, "recordWeatherLookup" | "recordUpstreamCall"> } = {},
): WeatherCache<StoredPayload> {
  const { logger, metrics } = options;
  const { baseUrl, userAgent, timeoutMs, maxBytes } = settings;
  return createWeatherCache<StoredPayload, PackedPayload>({
    client: createDocumentWorkerClient({
      client: { baseUrl, userAgent, timeoutMs, maxBytes },
      recordCall: metrics && ((outcome) => metrics.recordUpstreamCall(MET_SOURCE.id, outcome)),
    }),
    parse: storePayload,
    now,
    rateGate: createRateGate({ now: () => performance.now(), sleep, maxRequests: settings.maxRequestsPerSecond }),
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
