import { LRUCache } from "lru-cache";
import type { PreparedAnswer } from "./prepared-answer.ts";
import type { PathMatch } from "./route-table.ts";

/**
 * Finished answers by cache key (pipeline.ts answerCacheKey). One rule for when an entry dies: at its `validUntil`,
 * as soon as what it was built from is replaced (its `stillCurrent` says so), or when the byte bound needs its room,
 * least recently used first.
 */
export interface AnswerCache {
  /** The answer kept under `cacheKey`, if it is still true at the instant `now` and still current. */
  find(cacheKey: string, now: number): PreparedAnswer | undefined;
  keep(cacheKey: string, terms: AnswerTerms, answer: PreparedAnswer): void;
  /** Whether an answer is held, without counting as a use. */
  holds(cacheKey: string): boolean;
  /** The route table's match a held answer was built with, without counting as a use. */
  matchOf(cacheKey: string): PathMatch | undefined;
  /** Bytes currently held, as counted against the bound. */
  readonly bytes: number;
}

export interface AnswerTerms {
  /** When it was built: a clock stepped back (as NTP can) must not see an answer of its future. */
  builtAt: number;
  /** Epoch ms; Infinity while the data does not change. */
  validUntil: number;
  /** Whether what it was built from is still current (RouteResult.stillCurrent); absent, it stays until `validUntil`. */
  stillCurrent?: () => boolean;
  /** So that a kept URL is not routed again. */
  match: PathMatch;
}

/** 64 MB of answers by default: a few thousand distinct pages of the largest routes. */
export const DEFAULT_ANSWER_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The longest time to live handed to lru-cache: its purge timer waits 1 ms longer, and a Node timer past 2^31 - 1 ms
 * fires at once, again and again. A longer-lived answer is kept without one, judged by `validUntil` when asked for.
 */
const MAX_TTL_MS = 2 ** 31 - 2;

/** Per entry beyond its answer: the key and the cache's own bookkeeping. */
const ENTRY_OVERHEAD_BYTES = 512;

/**
 * Validity is judged by the app's clock (`find`'s `now`); lru-cache purges by its own monotonic clock, so a wall clock
 * stepped back never stretches its timers. `maxBytes` 0 keeps nothing.
 */
export function createAnswerCache(maxBytes: number = DEFAULT_ANSWER_CACHE_BYTES): AnswerCache {
  if (maxBytes <= 0)
    return { find: () => undefined, keep: () => undefined, holds: () => false, matchOf: () => undefined, bytes: 0 };
  const cache = new LRUCache<string, AnswerTerms & { answer: PreparedAnswer }>({
    maxSize: maxBytes,
    sizeCalculation: (entry, cacheKey) => Math.max(1, entry.answer.size + cacheKey.length * 2 + ENTRY_OVERHEAD_BYTES),
    // Answers nobody asks for again (a weather point polled once) leave on time, not when the bound needs room.
    ttlAutopurge: true,
  });
  return {
    find(cacheKey, now) {
      const entry = cache.get(cacheKey);
      if (!entry || now < entry.builtAt || now >= entry.validUntil) return undefined;
      if (entry.stillCurrent?.() === false) {
        cache.delete(cacheKey);
        return undefined;
      }
      return entry.answer;
    },
    keep(cacheKey, terms, answer) {
      const ttl = terms.validUntil - terms.builtAt;
      // Not kept when already out of date, or when its validity is NaN.
      if (!(ttl > 0)) return;
      cache.set(cacheKey, { ...terms, answer }, ttl <= MAX_TTL_MS ? { ttl } : {});
    },
    holds: (cacheKey) => cache.has(cacheKey),
    matchOf: (cacheKey) => cache.peek(cacheKey)?.match,
    get bytes() {
      return cache.calculatedSize;
    },
  };
}
