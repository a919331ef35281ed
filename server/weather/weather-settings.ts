/**
 * The weather source's settings and their defaults (DEFAULT_WEATHER_SETTINGS for those that may be absent), apart from
 * the code that uses them, so that reading the configuration (every CLI command does) loads none of the weather machinery.
 */
export interface WeatherSettings {
  enabled: boolean;
  baseUrl: string;
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  maxEntries: number;
  /** Bound of the stored payloads' bytes. */
  maxCacheBytes?: number;
  /**
   * This process's share of MET's 20 requests per second per application: with N instances sharing one application
   * (one User-Agent), each gets 20 / N.
   */
  maxRequestsPerSecond?: number;
  /** Longest MET's Retry-After is honoured; then one request asks MET again, and its answer decides (rate-gate.ts). */
  maxRetryAfterMs?: number;
}

export const DEFAULT_WEATHER_SETTINGS = {
  timeoutMs: 10_000,
  maxBytes: 5_000_000,
  /**
   * Points are stored deflated (stored-payload.ts), about 2.2 KB each for MET's complete document, so 10,000 points fit
   * in the byte bound; the byte bound holds whatever the provider's documents weigh. Keeping all of them fresh at
   * MET's usual 30-minute Expires would take about 5.5 requests per second of the 20 allowed.
   */
  maxEntries: 10_000,
  maxCacheBytes: 64 * 1024 * 1024,
  maxRequestsPerSecond: 20,
  /** An hour: MET's own throttling lasts seconds to minutes; a Retry-After of a day is more likely a fault than a plan. */
  maxRetryAfterMs: 3_600_000,
} as const;
