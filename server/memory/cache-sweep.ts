import type { SegmentedLru } from "./segmented-lru.ts";

/** How long an entry may go unused, or stay past its validity, before a sweep drops it. */
export const IDLE_ENTRY_MS = 60_000;

/** How often a cache holding anything is swept. */
const SWEEP_EVERY_MS = 15_000;

/** A cached value with the moment it was last used (monotonic ms). */
export interface Used<V> {
  value: V;
  usedAt: number;
}

/** For caches of `Used` entries: dead once unused for IDLE_ENTRY_MS. */
export const unusedForAMinute = (entry: Used<unknown>, now: number): boolean => entry.usedAt < now - IDLE_ENTRY_MS;

/**
 * Drops the entries of `cache` that `isDead` says will never be asked for again, every SWEEP_EVERY_MS while it holds
 * any. For caches whose entries die unseen: a weather rendering outlives its payload once MET's next document replaces
 * it, an answer by identity (a second of a point's cache age) is never asked for again after that second, and a kept
 * weather answer is valid for a second. Left to the byte bounds, such entries filled those caches to them under any
 * traffic of many points and stayed there (README, Soak run).
 *
 * `noteKept` is called after each `set`: it starts the timer, which stops again once the cache is empty. The timer is
 * unref'd, so it never keeps a process alive.
 */
export function createCacheSweep<K extends {}, V extends {}>(cache: SegmentedLru<K, V>, isDead: (value: V, now: number) => boolean, now: () => number): { noteKept(): void } {
  let timer: NodeJS.Timeout | undefined;
  const sweep = () => {
    const at = now();
    cache.deleteWhere((value) => isDead(value, at));
    if (cache.calculatedSize === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  return {
    noteKept() {
      if (!timer) timer = setInterval(sweep, SWEEP_EVERY_MS).unref();
    },
  };
}
