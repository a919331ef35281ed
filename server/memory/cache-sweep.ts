import { SegmentedLru, type SegmentedLruOptions } from "./segmented-lru.ts";

/** How long an entry may go unused, or stay past its validity, before a sweep drops it. */
export const IDLE_ENTRY_MS = 60_000;

/** How often a cache holding anything is swept. */
export const SWEEP_EVERY_MS = 15_000;

/**
 * Drops the entries of `cache` that will never be asked for again, every SWEEP_EVERY_MS while it holds any. For caches
 * whose entries die unseen: a weather rendering outlives its payload once MET's next document replaces it, an answer by
 * identity (a second of a point's cache age) is never asked for again after that second, a kept weather answer is valid
 * for a second, and a kept answer of the index or registry is dead once a new one is published. Left to the byte
 * bounds, such entries filled those caches to them under any traffic of many points and stayed there (README, Soak run).
 *
 * `deadAt(now)` is asked once a sweep for the test of its entries, so that what the test reads of the world (a route's
 * data generation) is read once for the whole sweep. `noteKept` is called after each `set`: it starts the timer, which
 * stops again once the cache is empty. The timer is unref'd, so it never keeps a process alive.
 */
export function createCacheSweep<K extends {}, V extends {}>(
  cache: SegmentedLru<K, V>,
  deadAt: (now: number) => (value: V) => boolean,
  now: () => number,
): { noteKept(): void } {
  let timer: NodeJS.Timeout | undefined;
  const sweep = () => {
    try {
      cache.deleteWhere(deadAt(now()));
    } catch {
      // A sweep that cannot tell what is dead (say, a published file it cannot read) drops nothing more: the byte bound
      // still holds, where an exception thrown from the timer would end the process.
    }
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

/** A cached value with the moment it was last used (monotonic ms). */
interface Used<V> {
  value: V;
  usedAt: number;
}

/**
 * A SegmentedLru whose entries are dropped once unused for IDLE_ENTRY_MS: for caches nothing tells when an entry has
 * died (weather renderings, answers by key). `now` is monotonic milliseconds.
 */
export class IdleDroppingLru<K extends {}, V extends {}> {
  private readonly entries: SegmentedLru<K, Used<V>>;
  private readonly sweep: { noteKept(): void };
  private readonly now: () => number;
  constructor(options: SegmentedLruOptions<K, V>, now: () => number = () => performance.now()) {
    this.entries = new SegmentedLru<K, Used<V>>({
      ...options,
      sizeCalculation: (used, key) => options.sizeCalculation(used.value, key),
    });
    this.sweep = createCacheSweep(this.entries, (at) => (used) => used.usedAt < at - IDLE_ENTRY_MS, now);
    this.now = now;
  }

  get(key: K): V | undefined {
    const used = this.entries.get(key);
    if (!used) return undefined;
    used.usedAt = this.now();
    return used.value;
  }

  set(key: K, value: V): void {
    this.entries.set(key, { value, usedAt: this.now() });
    this.sweep.noteKept();
  }

  get calculatedSize(): number {
    return this.entries.calculatedSize;
  }
}
