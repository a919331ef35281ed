// A held forecast's lifecycle: fresh until MET's Expires, then served only while MET fails, up to a stale maximum.

/** Both weather routes read the same entry per point; each judges its freshness by its own rules. */
export type WeatherView = "current" | "forecast";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * The spec's clamps on MET's Expires (`defaultMs` when absent), and the oldest copy (since fetch or last confirmation)
 * servable while MET fails: 22200 s is 10 min plus 6 h, 90000 s is 1 h plus 24 h.
 */
const WEATHER_FRESHNESS = {
  current: { ttl: { minMs: 5 * MINUTE_MS, maxMs: HOUR_MS, defaultMs: 10 * MINUTE_MS }, maxStaleMs: 22_200_000 },
  forecast: { ttl: { minMs: 15 * MINUTE_MS, maxMs: 6 * HOUR_MS, defaultMs: HOUR_MS }, maxStaleMs: 90_000_000 },
};

/** While MET fails, a point with a servable copy asks again at most this often (sooner once MET answers again). */
const RETRY_AFTER_FAILURE_MS = MINUTE_MS;

export function isFresh(copy: { fetchedAt: number; expires: number | null }, view: WeatherView, at: number): boolean {
  const { ttl } = WEATHER_FRESHNESS[view];
  if (copy.expires === null) return at - copy.fetchedAt < ttl.defaultMs;
  return at - copy.fetchedAt < Math.min(ttl.maxMs, Math.max(ttl.minMs, copy.expires - copy.fetchedAt));
}

export function servableWhileFailing(copy: { fetchedAt: number }, view: WeatherView, at: number): boolean {
  return at - copy.fetchedAt <= WEATHER_FRESHNESS[view].maxStaleMs;
}

export function recentlyFailed(lastFailureAt: number | null, lastSuccessAt: number, at: number): boolean {
  return lastFailureAt !== null && at - lastFailureAt < RETRY_AFTER_FAILURE_MS && lastSuccessAt < lastFailureAt;
}
