import { setTimeout as sleep } from "node:timers/promises";
import type { Dispatcher } from "undici";
import { createWeatherCache, DEFAULT_MAX_BYTES, type WeatherCache } from "./cache.ts";
import { parseMetDocument } from "./met-document.ts";
import { createMetClient } from "./met-client.ts";
import { storePayload, storedPayloadBytes, type StoredPayload } from "./stored-payload.ts";
import { normaliseMetDocument } from "./normalise.ts";
import { createRateGate } from "./rate-gate.ts";
import type { WeatherSettings } from "./weather-settings.ts";
import type { Logger } from "../observability/logger.ts";


/** The live weather source of one process: MET client, the process-wide rate gate and the cache of normalised payloads. */
export function createWeatherService(settings: WeatherSettings, now: () => number, options: { dispatcher?: Dispatcher; logger?: Logger } = {}): WeatherCache<StoredPayload> {
  const { dispatcher, logger } = options;
  return createWeatherCache<StoredPayload>({
    client: createMetClient({ baseUrl: settings.baseUrl, userAgent: settings.userAgent, timeoutMs: settings.timeoutMs, maxBytes: settings.maxBytes, dispatcher }),
    parse: (body) => storePayload(normaliseMetDocument(parseMetDocument(body))),
    now,
    rateGate: createRateGate({ now: () => performance.now(), sleep: (ms) => sleep(ms), maxRequests: settings.maxRequestsPerSecond }),
    maxEntries: settings.maxEntries,
    maxBytes: settings.maxCacheBytes ?? DEFAULT_MAX_BYTES,
    sizeOf: storedPayloadBytes,
    onUpstreamFailure: (error, point) => logger?.warn({ upstream: "met", code: error.code, lat: point.lat, lon: point.lon, retryAfterMs: error.retryAfterMs }, error.message),
  });
}
