import { LRUCache } from "lru-cache";
import type { PreparedAnswer } from "./prepared-answer.ts";
import type { Generation, PathMatch } from "./route-table.ts";

/**
 * Finished answers by cache key (pipeline.ts answerCacheKey), so that a repeated question is not computed again.
 *
 * One rule for when an entry dies: at the instant its route said its answer would change (`validUntil`: an event
 * turning due, data turning stale, a weather copy's age moving on a second), as soon as what it was built from is
 * replaced (the index and registry generation, or the route's own `stillCurrent` check of its weather copy), or when
 * the byte bound needs its room, least recently used first.
 */
export interface AnswerCache {
  /** The answer kept under `cacheKey`, if it is still true for the data `generation` and the instant `now`. */
  find(cacheKey: string, generation: Generation, now: number): PreparedAnswer | undefined;
  keep(cacheKey: string, terms: AnswerTerms, answer: PreparedAnswer): void;
  /** Whether an answer is held under `cacheKey`, without counting as a use (the Node listener asks it). */
  holds(cacheKey: string): boolean;
  /** The route table's match an answer held under `cacheKey` was built with, without counting as a use. */
  matchOf(cacheKey: string): PathMatch | undefined;
  /** Bytes currently held, as counted against the bound. */
  readonly bytes: number;
}

export interface AnswerTerms {
  /** The identities of the published data the answer was built from (BoundRoute.generation). */
  generation: Generation;
  /** When it was built: a clock stepped back (as NTP can) must not see an answer of its future. */
  builtAt: number;
  /** Epoch ms; Infinity while the data does not change. */
  validUntil: number;
  /** Asked at every reuse (RouteResult.stillCurrent). */
  stillCurrent?: () => boolean;
  /** The route table's match for the URL's path, so that a kept URL is not routed again. */
  match: PathMatch;
}

interface Entry extends AnswerTerms {
  answer: PreparedAnswer;
}

/** 64 MB of answers by default: a few thousand distinct pages of the largest routes. */
export const DEFAULT_ANSWER_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The longest validity handed to lru-cache as a time to live: its purge timer waits one millisecond longer, and Node's
 * timers cannot wait past 2^31 - 1 ms (about 24.8 days; a longer one fires at once, again and again). An answer valid
 * for longer is kept without one and judged by its `validUntil` when asked for.
 */
const MAX_TTL_MS = 2 ** 31 - 2;

/** Per entry beyond its answer: the key and the cache's own bookkeeping. */
const ENTRY_OVERHEAD_BYTES = 512;

/**
 * An answer's validity is judged by the app's clock (`find`'s `now`) when it is asked for; lru-cache removes an expired
 * answer by its own monotonic clock, so a wall clock stepped back (as NTP can) never stretches its timers. `maxBytes` 0
 * keeps nothing.
 */
export function createAnswerCache(maxBytes: number = DEFAULT_ANSWER_CACHE_BYTES): AnswerCache {
  if (maxBytes <= 0)
    return { find: () => undefined, keep: () => undefined, holds: () => false, matchOf: () => undefined, bytes: 0 };
  const cache = new LRUCache<string, Entry>({
    maxSize: maxBytes,
    sizeCalculation: (entry, cacheKey) => Math.max(1, entry.answer.size + cacheKey.length * 2 + ENTRY_OVERHEAD_BYTES),
    // Expired answers leave on their own, so answers nobody asks for again (a weather point polled once) never wait
    // for the byte bound to push them out.
    ttlAutopurge: true,
  });
  return {
    find(cacheKey, generation, now) {
      const entry = cache.get(cacheKey);
      if (!entry) return undefined;
      if (!sameGeneration(entry.generation, generation)) {
        cache.delete(cacheKey);
        return undefined;
      }
      if (now < entry.builtAt || now >= entry.validUntil || entry.stillCurrent?.() === false) return undefined;
      return entry.answer;
    },
    keep(cacheKey, terms, answer) {
      const ttl = terms.validUntil - terms.builtAt;
      // Not kept when already out of date, or when its validity is no number at all.
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

function sameGeneration(a: Generation, b: Generation): boolean {
  return a.length === b.length && a.every((part, i) => part === b[i]);
}
