// The settings of what `serve` holds open to others: its listener's limits on clients, and how it asks MET.
import { SERVICE_VERSION } from "../schemas/version.ts";
import { type ClientLimits, DEFAULT_CLIENT_LIMITS, type UpstreamConfig } from "../server/config.ts";
import { DEFAULT_WEATHER_SETTINGS, type WeatherSettings } from "../server/weather/weather-settings.ts";
import { ConfigError, type Env, integerVariable } from "./env-values.ts";

const DEFAULT_WEATHER_USER_AGENT = `weather-economics-service/${SERVICE_VERSION} (set SERVICE_WEATHER_USER_AGENT to include your contact)`;

const MEGABYTE = 1024 * 1024;
const SECOND = 1000;
const STANDIN_MAX_REQUESTS_PER_SECOND = 1000;

/** The API listener's limits on its clients (server/config.ts says why each default). */
export function clientLimitsFrom(env: Env): ClientLimits {
  const seconds = (name: string, fallbackMs: number, max: number) =>
    integerVariable(env[name], name, fallbackMs / SECOND, 1, max) * SECOND;
  const headersTimeoutMs = seconds("SERVICE_HEADERS_TIMEOUT_SECONDS", DEFAULT_CLIENT_LIMITS.headersTimeoutMs, 300);
  const requestTimeoutMs = seconds("SERVICE_REQUEST_TIMEOUT_SECONDS", DEFAULT_CLIENT_LIMITS.requestTimeoutMs, 3600);
  if (requestTimeoutMs < headersTimeoutMs) {
    throw new ConfigError(
      `SERVICE_REQUEST_TIMEOUT_SECONDS (${requestTimeoutMs / SECOND}) must not be less than SERVICE_HEADERS_TIMEOUT_SECONDS (${headersTimeoutMs / SECOND}): a request's headers are part of it`,
    );
  }
  const maxConnections = integerVariable(
    env.SERVICE_MAX_CONNECTIONS,
    "SERVICE_MAX_CONNECTIONS",
    DEFAULT_CLIENT_LIMITS.maxConnections,
    1,
    1_000_000,
  );
  return { headersTimeoutMs, requestTimeoutMs, maxConnections };
}

export function weatherFrom(env: Env, upstreams: UpstreamConfig[]): WeatherSettings {
  const met = upstreams.find((upstream) => upstream.domain === "weather")!;
  return {
    enabled: met.enabled,
    baseUrl: met.baseUrl,
    userAgent: env.SERVICE_WEATHER_USER_AGENT || DEFAULT_WEATHER_USER_AGENT,
    timeoutMs: integerVariable(
      env.SERVICE_WEATHER_TIMEOUT_MS,
      "SERVICE_WEATHER_TIMEOUT_MS",
      DEFAULT_WEATHER_SETTINGS.timeoutMs,
      100,
      120_000,
    ),
    maxBytes: integerVariable(
      env.SERVICE_WEATHER_MAX_BYTES,
      "SERVICE_WEATHER_MAX_BYTES",
      DEFAULT_WEATHER_SETTINGS.maxBytes,
      1000,
      100_000_000,
    ),
    maxEntries: integerVariable(
      env.SERVICE_WEATHER_CACHE_ENTRIES,
      "SERVICE_WEATHER_CACHE_ENTRIES",
      DEFAULT_WEATHER_SETTINGS.maxEntries,
      1,
      1_000_000,
    ),
    // MET's terms cap its own host at 20 per second; a local stand-in (tests, demos, the benchmark) may take more.
    maxRequestsPerSecond: integerVariable(
      env.SERVICE_WEATHER_MAX_REQUESTS_PER_SECOND,
      "SERVICE_WEATHER_MAX_REQUESTS_PER_SECOND",
      DEFAULT_WEATHER_SETTINGS.maxRequestsPerSecond,
      1,
      met.baseUrl === met.publisherBaseUrl
        ? DEFAULT_WEATHER_SETTINGS.maxRequestsPerSecond
        : STANDIN_MAX_REQUESTS_PER_SECOND,
    ),
    maxRetryAfterMs:
      integerVariable(
        env.SERVICE_WEATHER_MAX_RETRY_AFTER_SECONDS,
        "SERVICE_WEATHER_MAX_RETRY_AFTER_SECONDS",
        DEFAULT_WEATHER_SETTINGS.maxRetryAfterMs / SECOND,
        1,
        86_400,
      ) * SECOND,
    maxCacheBytes:
      integerVariable(
        env.SERVICE_WEATHER_CACHE_MB,
        "SERVICE_WEATHER_CACHE_MB",
        DEFAULT_WEATHER_SETTINGS.maxCacheBytes / MEGABYTE,
        1,
        65_536,
      ) * MEGABYTE,
  };
}
