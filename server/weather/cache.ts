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
 * What one lookup found, for operators' metrics. hit: a fresh copy, MET not asked. revalidated: an expired copy checked
 * with MET, which confirmed (304) or replaced it. stale: an expired copy served because MET fails or just failed.
 * miss: no copy that could be served, so MET's answer (or its recent failure) is the answer.
 */
export const WEATHER_LOOKUP_OUTCOMES = ["hit", "miss", "revalidated", "stale"] as const;
export type WeatherLookupOutcome = (typeof WEATHER_LOOKUP_OUTCOMES)[number];
export type WeatherLookupRecorder = (outcome: WeatherLookupOutcome) => void;

export interface WeatherCacheOptions<T, B = unknown> {
  client: MetClient<B>;
  /** Turns the client's document into the stored value; throws when the document is not a usable forecast. */
  parse: (body: B) => T;
  now: () => number;
  /** The process-wide gate: every provider request passes through it. */
  rateGate: RateGate;
  maxEntries?: number;
  /** With `sizeOf`: the bound on the stored payloads' bytes, so memory is bounded whatever MET's documents weigh. */
  maxBytes?: number;
  sizeOf?: (value: T) => number;
  /** Longest MET's Retry-After is honoured (one far in the future must not stop weather for a day). */
  maxRetryAfterMs?: number;
  /** Told of every provider request that failed, for operators' logs. */
  onUpstreamFailure?: (error: WeatherUpstreamError, point: WeatherPoint) => void;
  /** Told what each lookup found (`peek` only when it finds a fresh copy, since `get` follows when it does not). */
  recordLookup?: WeatherLookupRecorder;
}

export interface CachedWeather<T> {
  value: T;
  /** False only when this request's own provider call produced a new payload. */
  cached: boolean;
  /** Whole seconds since the payload was fetched or last confirmed with a 304. */
  cacheAgeSeconds: number;
  fetchedAt: string;
  /** An expired copy served because MET failed. */
  stale: boolean;
  degraded: boolean;
  /** What the lookup found, as the lookup metric counts it. */
  outcome: WeatherLookupOutcome;
}

export interface WeatherCache<T> {
  /** Throws WeatherUpstreamError when MET fails and no copy young enough for this view is held. */
  get(point: WeatherPoint, view: WeatherView): Promise<CachedWeather<T>>;
  /** The copy when it is fresh for this view, at once; undefined when `get` would have to ask MET or judge a failure. */
  peek(point: WeatherPoint, view: WeatherView): CachedWeather<T> | undefined;
  /**
   * For an answer built from a fresh cached copy (`cached`, not `stale`), the terms on which it may be kept: until its
   * cache age moves on a second, and while that copy is still the point's fresh one for this view (`stillCurrent`, a
   * lookup like `peek`, counted as a hit when it holds). Undefined when the copy is no longer the point's.
   */
  keepingTerms(
    point: WeatherPoint,
    view: WeatherView,
    served: CachedWeather<T>,
  ): { validUntil: number; stillCurrent: () => boolean } | undefined;
  upstreamHealth(): UpstreamHealthSnapshot;
  /** Bytes of the payloads held (`sizeOf`), as counted against `maxBytes`; 0 when the cache counts entries only. */
  readonly bytes: number;
}

interface Entry<T> {
  value: T;
  /** Last fetch, or last 304 confirmation. */
  fetchedAt: number;
  /** `fetchedAt` as the ISO 8601 text every answer from this copy states, formatted once. */
  fetchedAtText: string;
  expires: number | null;
  lastModified: string | null;
  lastFailureAt: number | null;
}

interface Refreshed<T> {
  entry: Entry<T>;
  replaced: boolean;
}

type Source = "provider" | "cache" | "stale";

export function createWeatherCache<T, B = unknown>(options: WeatherCacheOptions<T, B>): WeatherCache<T> {
  const { client, parse, now, rateGate } = options;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_WEATHER_SETTINGS.maxRetryAfterMs;
  const { sizeOf } = options;
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
  /** Points with no copy whose last request failed: answered with that failure for a short while, not asked again. */
  const coldFailures = new LRUCache<string, { error: WeatherUpstreamError; failedAt: number; until: number }>({
    max: COLD_FAILURE_ENTRIES,
  });
  /** When MET last answered any request: evidence that a point which failed before may be asked again at once. */
  let lastSuccessAt = Number.NEGATIVE_INFINITY;
  let lastModifiedSeen: string | null = null;

  /** The copy as served, its lookup counted. */
  function served(entry: Entry<T>, source: Source, outcome: WeatherLookupOutcome): CachedWeather<T> {
    record(outcome);
    return {
      value: entry.value,
      cached: source !== "provider",
      cacheAgeSeconds: Math.floor(Math.max(0, now() - entry.fetchedAt) / 1000),
      fetchedAt: entry.fetchedAtText,
      stale: source === "stale",
      degraded: source === "stale",
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

  async function refreshFromProvider(
    key: string,
    point: WeatherPoint,
    held: Entry<T> | undefined,
  ): Promise<Refreshed<T>> {
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
      const { expires } = result;
      const entry = {
        value: parseDocument(result.body),
        ...confirmed,
        expires,
        lastModified: sharedLastModified(result.lastModified),
      };
      return { entry, replaced: true };
    }
    if (!held)
      throw new WeatherUpstreamError("UPSTREAM_INVALID_PAYLOAD", "MET answered 304 to an unconditional request");
    // A 304 updates only the validators it carries (RFC 9111 section 4.3.4).
    const expires = result.expires ?? held.expires;
    const lastModified = result.lastModified ?? held.lastModified;
    return { entry: { value: held.value, ...confirmed, expires, lastModified }, replaced: false };
  }

  /**
   * MET's Last-Modified names its model run, so the points fetched after a run repeat one text; each arrives as a
   * string of its own (from the document worker), and ten thousand points kept half a megabyte of copies.
   */
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
      const fresh = freshEntry(pointKey(roundPoint(point)), view);
      if (!fresh) return undefined;
      return served(fresh, "cache", "hit");
    },
    keepingTerms(point, view, served) {
      const key = pointKey(roundPoint(point));
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
      if (fresh) return served(fresh, "cache", "hit");
      const held = entries.get(key);
      if (held) {
        if (recentlyFailed(held.lastFailureAt, lastSuccessAt, now()) && servableWhileFailing(held, view, now()))
          return served(held, "stale", "stale");
      } else {
        const failure = coldFailures.get(key);
        if (failure && now() < failure.until && lastSuccessAt < failure.failedAt) {
          record("miss");
          throw new WeatherUpstreamError(failure.error.code, failure.error.message, failure.until - now());
        }
      }
      try {
        const { entry, replaced } = await refreshOnce(key, rounded, held);
        return served(entry, replaced ? "provider" : "cache", held ? "revalidated" : "miss");
      } catch (error) {
        if (error instanceof WeatherUpstreamError && held && servableWhileFailing(held, view, now()))
          return served(held, "stale", "stale");
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
