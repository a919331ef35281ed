/** Apart from the code that uses them, so that reading the configuration loads none of the weather machinery. */
export interface WeatherSettings {
  enabled: boolean;
  baseUrl: string;
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  maxEntries: number;
  /** Bound of the stored payloads' bytes. */
  maxCacheBytes?: number;
  /** This process's share of MET's 20 requests per second per application (User-Agent): 20 / N for N instances. */
  maxRequestsPerSecond?: number;
  /** Longest MET's Retry-After is honoured; then one request asks MET again, and its answer decides (rate-gate.ts). */
  maxRetryAfterMs?: number;
}

export const DEFAULT_WEATHER_SETTINGS = {
  timeoutMs: 10_000,
  maxBytes: 5_000_000,
  /** About 2.2 KB each deflated, so they fit the byte bound; fresh at MET's 30-minute Expires: 5.5 requests/s. */
  maxEntries: 10_000,
  maxCacheBytes: 64 * 1024 * 1024,
  maxRequestsPerSecond: 20,
  /** An hour: MET's throttling lasts seconds to minutes; a Retry-After of a day is more likely a fault. */
  maxRetryAfterMs: 3_600_000,
} as const;

/** MET blocks requests without an identifying User-Agent (application name plus contact): refused when it is set up. */
export function requireUserAgent(userAgent: string): void {
  if (userAgent.trim() === "") throw new Error("MET requires an identifying User-Agent; none was configured");
}
