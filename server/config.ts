import type { ObjectStoreLocation } from "../schemas/index-manifest.ts";
import type { LogLevel } from "./observability/log-levels.ts";
import type { WeatherSettings } from "./weather/weather-settings.ts";

/** The server's deployment, built by the CLI from flags and environment. */
export interface ServiceConfig {
  /** Deployment environment; API keys are valid only in the environment they were created for. */
  environment: string;
  dataDir: string;
  keysFile: string;
  /** False runs a deployment with no durable store bound: storage-backed routes answer 503. */
  durableStorage: boolean;
  corsOrigins: string[];
  /** Addresses of reverse proxies whose X-Forwarded-For is believed for public rate limits; none by default. */
  trustedProxies?: string[];
  rateLimit: RateLimitConfig;
  /** Upstream base URLs by source id; shown (without their hosts) in capabilities. */
  upstreams: UpstreamConfig[];
  weather: WeatherSettings;
  /** Level of the structured log (stderr); `info` logs a line per request. */
  logLevel?: LogLevel;
  /** How long requests under way may finish after SIGTERM; the weather time-out plus 5 s when absent. */
  shutdownGraceMs?: number;
  /** Bound of the answers kept for repeated questions (server/http/answer-cache.ts); its default when absent. */
  answerCacheBytes?: number;
  /** Bound of the compressed heads of large answers (server/http/compression.ts); its default when absent. */
  compressedHeadBytes?: number;
  /** A separate listener serving the metrics at `/metrics` with no key (SERVICE_METRICS_PORT); none when absent. */
  metricsListener?: { port: number; host: string };
  /** How long the API listener waits on its clients and how many it holds; DEFAULT_CLIENT_LIMITS when absent. */
  clientLimits?: ClientLimits;
}

/** What the API listener allows its clients: a slow or silent connection holds a file descriptor until one ends it. */
export interface ClientLimits {
  /** Headers must arrive within this after the connection opened, or after its first byte. */
  headersTimeoutMs: number;
  /** The whole request, headers and body, must have arrived within this; not less than `headersTimeoutMs`. */
  requestTimeoutMs: number;
  /** Connections open at once; one more is closed as soon as it is accepted. */
  maxConnections: number;
}

/**
 * 20 s covers a slow mobile link's one header packet, and requests carry no body worth waiting for. 10,000
 * connections leave room in a 20,000 file descriptor limit for the data files and MET.
 */
export const DEFAULT_CLIENT_LIMITS: ClientLimits = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 30_000,
  maxConnections: 10_000,
};

/** How `service serve --index-from` follows the generations one writer publishes to object storage. */
export interface IndexFollowingConfig {
  source: ObjectStoreLocation;
  pollIntervalMs: number;
}

export interface RateLimitConfig {
  windowSeconds: number;
  publicPerWindow: number;
  credentialedPerWindow: number;
}

export interface UpstreamConfig {
  id: string;
  domain: "weather" | "economics" | "news";
  baseUrl: string;
  publisherBaseUrl: string;
  enabled: boolean;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
