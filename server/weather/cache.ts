import { LRUCache } from "lru-cache";
import { isFresh, recentlyFailed, servableWhileFailing, type WeatherView } from "./entry-lifecycle.ts";
import type { MetClient } from "./met-client.ts";
import { pointKey, roundPoint, type WeatherPoint } from "./point.ts";
import type { RateGate } from "./rate-gate.ts";
import { unusableForecast, WeatherUpstreamError } from "./upstream-error.ts";
import { createUpstreamHealth, type UpstreamHealthSnapshot } from "./upstream-health.ts";
import { DEFAULT_WEATHER_SETTINGS } from "./weather-settings.ts";

/** A point with no copy whose request failed answers that failure for this long (MET's Retry-After if longer). */
export const COLD_FAILURE_MS = 10_000;
const COLD_FAILURE_ENTRIES = 10_000;

/**
 * What one lookup found (operators' metrics). hit: a fresh copy. revalidated: an expired copy confirmed (304) or
 * replaced by MET. stale: an expired copy served because MET fails or just failed. miss: MET's answer (or failure).
 */
export const WEATHER_LOOKUP_OUTCOMES = ["hit", "miss", "revalidated", "stale"] as const;
export type WeatherLookupOutcome = (typeof WEATHER_LOOKUP_OUTCOMES)[number];
export type WeatherLookupRecorder = (outcome: WeatherLookupOutcome) => void;

export interface WeatherCacheOptions<T, B = unknown> {
  client: MetClient<B>;
  /** The stored value of the client's document; throws when it is not a usable forecast. */
  parse: (body: B) => T;
  now: () => number;
  /** Process-wide: every provider request passes through it. */
  rateGate: RateGate;
  maxEntries?: number;
  /** With `sizeOf`: the bound on the stored payloads' bytes, whatever MET's documents weigh. */
  maxBytes?: number;
  sizeOf?: (value: T) => number;
  /** Longest MET's Retry-After is honoured (one a day ahead must not stop weather for a day). */
  maxRetryAfterMs?: number;
  /** Told of every failed provider request (operators' logs). */
  onUpstreamFailure?: (error: WeatherUpstreamError, point: WeatherPoint) => void;
  /** Told what each lookup found (`peek` only on a fresh copy: `get` follows otherwise). */
  recordLookup?: WeatherLookupRecorder;
}

export interface CachedWeather<T> {
  value: T;
  /** False only when a provider call this request made or joined produced a new payload. */
  cached: boolean;
  /** Whole seconds since the payload was fetched or last confirmed with a 304. */
  cacheAgeSeconds: number;
  fetchedAt: string;
  /** An expired copy served because MET failed. */
  stale: boolean;
  degraded: boolean;
  outcome: WeatherLookupOutcome;
}

export interface WeatherCache<T> {
  /** Throws WeatherUpstreamError when MET fails and no copy young enough for this view is held. */
  get(point: WeatherPoint, view: WeatherView): Promise<CachedWeather<T>>;
  /** The copy when it is fresh for this view, at once; else undefined (`get` must ask MET or judge a failure). */
  peek(point: WeatherPoint, view: WeatherView): CachedWeather<T> | undefined;
  /**
   * How long an answer built from a fresh cached copy may be kept: until its cache age moves on a second, and while
   * that copy is still the point's fresh one (`stillCurrent`, counted as a hit like `peek`). Undefined when it is not.
   */
  keepingTerms(
    point: WeatherPoint,
    view: WeatherView,
    served: CachedWeather<T>,
  ): { validUntil: number; stillCurrent: () => boolean } | undefined;
  upstreamHealth(): UpstreamHealthSnapshot;
  /** Bytes held as counted against `maxBytes`; 0 without `sizeOf`. */
  readonly bytes: number;
}

interface Entry<T> {
  value: T;
  /** Last fetch, or last 304 confirmation. */
  fetchedAt: number;
  /** `fetchedAt` as ISO 8601, formatted once for every answer from this copy. */
  fetchedAtText: string;
  expires: number | null;
  lastModified: string | null;
  lastFailureAt: number | null;
}

interface Refreshed<T> {
  entry: Entry<T>;
  replaced: boolean;
}

export function createWeatherCache<T, B = unknown>(options: WeatherCacheOptions<T, B>): WeatherCache<T> {
  const { client, parse, now, rateGate, sizeOf } = options;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_WEATHER_SETTINGS.maxRetryAfterMs;
  const record = options.recordLookup ?? (() => {});
  const entries = new LRUCache<string, Entry<T>>({
    max: options.maxEntries ?? DEFAULT_WEATHER_SETTINGS.maxEntries,
    ...(sizeOf
      ? {
          maxSize: options.maxBytes ?? DEFAULT_WEATHER_SETTINGS.maxCacheBytes,
          sizeCalculation: (entry: Entry<T>) => Math.max(1, sizeOf(entry.value)),
        }
      : {}),
  });
  const inFlight = new Map<string, Promise<Refreshed<T>>>();
  const health = createUpstreamHealth(now);
  /** Points with no copy whose last request failed: that failure is the answer for a short while. */
  const coldFailures = new LRUCache<string, { error: WeatherUpstreamError; failedAt: number; until: number }>({
    max: COLD_FAILURE_ENTRIES,
  });
  /** When MET last answered: a point that failed before may then be asked again at once. */
  let lastSuccessAt = Number.NEGATIVE_INFINITY;
  let lastModifiedSeen: string | null = null;

  /** The copy as served, its lookup counted; `cached` is false for a payload from a call this lookup made or joined. */
  function served(entry: Entry<T>, outcome: WeatherLookupOutcome, cached = true): CachedWeather<T> {
    record(outcome);
    return {
      value: entry.value,
      cached,
      cacheAgeSeconds: Math.floor(Math.max(0, now() - entry.fetchedAt) / 1000),
      fetchedAt: entry.fetchedAtText,
      stale: outcome === "stale",
      degraded: outcome === "stale",
      outcome,
    };
  }

  function refreshOnce(key: string, point: WeatherPoint, held: Entry<T> | undefined): Promise<Refreshed<T>> {
    const pending = inFlight.get(key);
    if (pending) return pending;
    const refresh = refreshFromProvider(key, point, held).finally(() => inFlight.delete(key));
    inFlight.set(key, refresh);
    return refresh;
  }

  async function refreshFromProvider(key: string, point: WeatherPoint, held?: Entry<T>): Promise<Refreshed<T>> {
    const release = await rateGate.acquire();
    health.recordAttempt();
    try {
      const refreshed = await fetchEntry(point, held);
      entries.set(key, refreshed.entry);
      coldFailures.delete(key);
      health.recordSuccess();
      lastSuccessAt = now();
      return refreshed;
    } catch (caught) {
      health.recordFailure();
      const failedAt = now();
      if (held) held.lastFailureAt = failedAt;
      if (!(caught instanceof WeatherUpstreamError)) throw caught;
      options.onUpstreamFailure?.(caught, point);
      const error = honoured(caught);
      // MET's 429 with Retry-After holds for the whole application: nobody asks again before it ends (or the cap).
      if (error.retryAfterMs !== null) rateGate.pauseFor(error.retryAfterMs);
      if (!held)
        coldFailures.set(key, {
          error,
          failedAt,
          until: failedAt + Math.max(COLD_FAILURE_MS, error.retryAfterMs ?? 0),
        });
      throw error;
    } finally {
      release();
    }
  }

  /** The failure with MET's Retry-After cut to the cap, so that the pause, the point's failure and the 503 agree. */
  function honoured(error: WeatherUpstreamError): WeatherUpstreamError {
    if (error.retryAfterMs === null || error.retryAfterMs <= maxRetryAfterMs) return error;
    return new WeatherUpstreamError(error.code, error.message, maxRetryAfterMs);
  }

  async function fetchEntry(point: WeatherPoint, held: Entry<T> | undefined): Promise<Refreshed<T>> {
    const result = await client.fetchLocation({ ...point, ifModifiedSince: held?.lastModified ?? undefined });
    const fetchedAt = now();
    const confirmed = { fetchedAt, fetchedAtText: new Date(fetchedAt).toISOString(), lastFailureAt: null };
    if (result.kind === "modified") {
      const value = parseDocument(result.body);
      const lastModified = sharedLastModified(result.lastModified);
      return { entry: { value, ...confirmed, expires: result.expires, lastModified }, replaced: true };
    }
    if (!held)
      throw new WeatherUpstreamError("UPSTREAM_INVALID_PAYLOAD", "MET answered 304 to an unconditional request");
    // A 304 updates only the validators it carries (RFC 9111 section 4.3.4).
    const expires = result.expires ?? held.expires;
    const lastModified = result.lastModified ?? held.lastModified;
    return { entry: { value: held.value, ...confirmed, expires, lastModified }, replaced: false };
  }

  /** MET's Last-Modified names its model run: points of one run share one string, not a copy each from the worker. */
  function sharedLastModified(text: string | null): string | null {
    if (text !== null && text === lastModifiedSeen) return lastModifiedSeen;
    lastModifiedSeen = text;
    return text;
  }

  function parseDocument(body: B): T {
    try {
      return parse(body);
    } catch {
      throw unusableForecast();
    }
  }

  function freshEntry(key: string, view: WeatherView): Entry<T> | undefined {
    const held = entries.get(key);
    return held && isFresh(held, view, now()) ? held : undefined;
  }

  return {
    peek(point, view) {
      const fresh = freshEntry(pointKey(point), view);
      return fresh ? served(fresh, "hit") : undefined;
    },
    keepingTerms(point, view, served) {
      const key = pointKey(point);
      const copy = entries.peek(key);
      if (!copy || copy.value !== served.value || copy.fetchedAtText !== served.fetchedAt) return undefined;
      const { fetchedAt } = copy;
      const stillCurrent = () => {
        if (freshEntry(key, view)?.fetchedAt !== fetchedAt) return false;
        record("hit");
        return true;
      };
      return { validUntil: fetchedAt + (served.cacheAgeSeconds + 1) * 1000, stillCurrent };
    },
    async get(point, view) {
      const rounded = roundPoint(point);
      const key = pointKey(rounded);
      const fresh = freshEntry(key, view);
      if (fresh) return served(fresh, "hit");
      const held = entries.get(key);
      if (held) {
        if (recentlyFailed(held.lastFailureAt, lastSuccessAt, now()) && servableWhileFailing(held, view, now()))
          return served(held, "stale");
      } else {
        const failure = coldFailures.get(key);
        if (failure && now() < failure.until && lastSuccessAt < failure.failedAt) {
          record("miss");
          throw new WeatherUpstreamError(failure.error.code, failure.error.message, failure.until - now());
        }
      }
      try {
        const { entry, replaced } = await refreshOnce(key, rounded, held);
        return served(entry, held ? "revalidated" : "miss", !replaced);
      } catch (error) {
        if (error instanceof WeatherUpstreamError && held && servableWhileFailing(held, view, now()))
          return served(held, "stale");
        record("miss");
        throw error;
      }
    },
    upstreamHealth: () => health.snapshot(),
    get bytes() {
      return entries.calculatedSize;
    },
  };
}
