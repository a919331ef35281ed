import { createCacheSweep, IDLE_ENTRY_MS, IdleDroppingLru } from "../memory/cache-sweep.ts";
import { SegmentedLru } from "../memory/segmented-lru.ts";
import type { PreparedAnswer } from "./respond.ts";

/**
 * Whole answers of routes whose answer depends only on the data it was built from, the request's parameters and the
 * clock, kept so that a repeated question is not computed again. An answer is kept for the data generation it was
 * built from (the identities of the index and registry it read), or while the route's own check says its data is
 * still current (a weather answer: the point's cached copy), and only until the instant the route said its answer
 * would change (an event turning due, data turning stale, a default window moving to the next day, a cache age
 * moving on a second).
 */
export interface KeptAnswers {
  find(key: string, generation: readonly unknown[], now: number): PreparedAnswer | undefined;
  /**
   * `builtAt` too bounds the answer: a clock stepped back (as NTP can) must not see an answer of its future.
   * `stillCurrent`, when given, is asked at every reuse (RouteResult.stillCurrent).
   */
  keep(key: string, generation: readonly unknown[], validity: KeptValidity, answer: PreparedAnswer): void;
  /** Bytes currently held. */
  readonly bytes: number;
}

export interface KeptValidity {
  builtAt: number;
  until: number;
  stillCurrent?: () => boolean;
  /**
   * The route's data generation as it is now (BoundRoute.generation). `find` compares the generation it is asked with;
   * the sweep asks this, so that the answers of an index or registry since replaced leave within a sweep rather than
   * only when their URL is asked again or the byte bound pushes them out, however long their validity.
   */
  generationNow?: () => readonly unknown[];
}

interface Kept {
  generation: readonly unknown[];
  validity: KeptValidity;
  answer: PreparedAnswer;
}

/** 64 MB of kept answers by default: a few thousand distinct pages of the largest routes. */
export const DEFAULT_KEPT_ANSWER_BYTES = 64 * 1024 * 1024;

/** Per entry beyond its text: the key, the entry objects and the map's own bookkeeping. */
const ENTRY_OVERHEAD_BYTES = 512;

/**
 * `now` is the clock validity is judged by, the one `find` is asked with (epoch ms): an answer a minute past its
 * validity, or one of a data generation since replaced, is swept away, not left to fill the bound (cache-sweep.ts).
 * `maxBytes` 0 keeps nothing: every answer is built anew.
 */
export function createKeptAnswers(now: () => number, maxBytes: number = DEFAULT_KEPT_ANSWER_BYTES): KeptAnswers {
  if (maxBytes <= 0) return { find: () => undefined, keep: () => undefined, bytes: 0 };
  const cache = new SegmentedLru<string, Kept>({
    maxSize: maxBytes,
    // The answer counts what it holds (respond.ts); a key is counted as if two bytes a character.
    sizeCalculation: (kept, key) => Math.max(1, kept.answer.size + key.length * 2 + ENTRY_OVERHEAD_BYTES),
  });
  const sweep = createCacheSweep(
    cache,
    (at) => {
      // A dozen routes share two generation functions: each is asked once a sweep, not once an answer.
      const generations = new Map<() => readonly unknown[], readonly unknown[]>();
      const askOnce = (generationNow: () => readonly unknown[]) => {
        let parts = generations.get(generationNow);
        if (!parts) generations.set(generationNow, (parts = generationNow()));
        return parts;
      };
      return ({ generation, validity }) =>
        at >= validity.until + IDLE_ENTRY_MS ||
        (validity.generationNow !== undefined && !sameGeneration(generation, askOnce(validity.generationNow)));
    },
    now,
  );
  return {
    find(key, generation, now) {
      // Looked at before it counts as asked for: only an answer still true is promoted or refreshed.
      const kept = cache.peek(key);
      if (!kept) return undefined;
      if (!sameGeneration(kept.generation, generation)) {
        cache.delete(key);
        return undefined;
      }
      // An answer whose time has passed is left where it is: the one rebuilt for the same key replaces it in its
      // segment, so a polled answer stays protected as it is renewed; one not rebuilt within a minute is swept away.
      const { validity } = kept;
      if (now < validity.builtAt || now >= validity.until || validity.stillCurrent?.() === false) return undefined;
      cache.get(key);
      return kept.answer;
    },
    keep(key, generation, validity, answer) {
      cache.set(key, { generation, validity, answer });
      sweep.noteKept();
    },
    get bytes() {
      return cache.calculatedSize;
    },
  };
}

/**
 * Answers by the identity a route gave them (`answerKey`: equal keys, byte-identical answers), for routes whose
 * answers repeat within a short time but are not kept per data generation: a polled weather point answers the same
 * bytes, but for the request id and time, until its cache age moves on a second.
 */
export interface AnswersByKey {
  find(key: string): PreparedAnswer | undefined;
  remember(key: string, answer: PreparedAnswer): void;
  /** Bytes currently held. */
  readonly bytes: number;
}

/** 16 MB: the hot points' answers of the current second. */
const DEFAULT_ANSWERS_BY_KEY_BYTES = 16 * 1024 * 1024;

/** `now` (monotonic ms, performance.now by default) tells how long an answer has gone unused (cache-sweep.ts). */
export function createAnswersByKey(maxBytes: number = DEFAULT_ANSWERS_BY_KEY_BYTES, now?: () => number): AnswersByKey {
  // A weather answer's identity names its cache age in seconds: after that second it is never asked for again.
  const cache = new IdleDroppingLru<string, PreparedAnswer>(
    {
      maxSize: maxBytes,
      sizeCalculation: (answer, key) => Math.max(1, answer.size + key.length * 2 + ENTRY_OVERHEAD_BYTES),
    },
    now,
  );
  return {
    find: (key) => cache.get(key),
    remember: (key, answer) => cache.set(key, answer),
    get bytes() {
      return cache.calculatedSize;
    },
  };
}

function sameGeneration(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((part, i) => part === b[i]);
}
