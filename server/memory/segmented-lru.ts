import { LRUCache } from "lru-cache";

export interface SegmentedLruOptions<K, V> {
  /** Bound on both segments together, in the units `sizeCalculation` counts (bytes). */
  maxSize: number;
  sizeCalculation: (value: V, key: K) => number;
  /** Of `maxSize`, what entries asked for once may hold. */
  probationShare?: number;
}

/**
 * A thirty-second: room for what a burst of new keys needs until its second request. Keys asked again after they
 * left probation are recognised by the ghosts below, so probation itself can stay small: at an eighth, a sweep of
 * points asked once each held about 9 MB more of the serving process after the benchmark's routes (by hand; README,
 * Performance).
 */
const DEFAULT_PROBATION_SHARE = 1 / 32;

/** Of probation's bytes, what the keys remembered after eviction may take. */
const GHOST_SHARE_OF_PROBATION = 1 / 2;
/** Per remembered key beyond its text: the cache's own bookkeeping. */
const GHOST_OVERHEAD_BYTES = 64;

/**
 * A byte-bounded LRU cache in two segments (SLRU): an entry enters on probation and moves to the protected segment
 * when it is asked for again. A stream of keys asked once each (ten thousand weather points, each polled once) then
 * cycles through probation's share of the bound and never pushes out what clients ask for repeatedly. Without it, the
 * per-point answers of a one-off sweep filled every cache to its bound and stayed there (README, Performance).
 *
 * A key pushed out of probation is remembered without its value (a ghost, as in 2Q): set again while remembered, its
 * entry goes to the protected segment at once. A client polling more slowly than probation turns over during such a
 * sweep is then kept from its second answer on rather than never, as long as the ghosts still hold its key (for kept
 * answers some 5,000 weather URLs, about a minute of the benchmark's sweep; for recognised URLs some 350).
 *
 * An entry larger than probation's share enters the protected segment at once, so large answers are still kept; one
 * larger than the protected segment is not kept at all.
 */
export class SegmentedLru<K extends {}, V extends {}> {
  private readonly probation: LRUCache<K, V>;
  private readonly protected: LRUCache<K, V>;
  private readonly ghosts: LRUCache<K, true>;
  private readonly sizeOf: (value: V, key: K) => number;

  constructor({ maxSize, sizeCalculation, probationShare = DEFAULT_PROBATION_SHARE }: SegmentedLruOptions<K, V>) {
    const probationSize = Math.max(1, Math.floor(maxSize * probationShare));
    this.sizeOf = (value, key) => Math.max(1, sizeCalculation(value, key));
    this.ghosts = new LRUCache<K, true>({
      maxSize: Math.max(1, Math.floor(probationSize * GHOST_SHARE_OF_PROBATION)),
      sizeCalculation: (_, key) => String(key).length * 2 + GHOST_OVERHEAD_BYTES,
    });
    this.probation = new LRUCache<K, V>({
      maxSize: probationSize,
      sizeCalculation: this.sizeOf,
      dispose: (_, key, reason) => {
        if (reason === "evict") this.ghosts.set(key, true);
      },
    });
    this.protected = new LRUCache<K, V>({
      maxSize: Math.max(1, maxSize - probationSize),
      sizeCalculation: this.sizeOf,
    });
  }

  get(key: K): V | undefined {
    const kept = this.protected.get(key);
    if (kept !== undefined) return kept;
    const onProbation = this.probation.get(key);
    if (onProbation === undefined) return undefined;
    this.probation.delete(key);
    this.protected.set(key, onProbation);
    return onProbation;
  }

  set(key: K, value: V): void {
    const size = this.sizeOf(value, key);
    if (this.protected.has(key) || size > this.probation.maxSize || this.ghosts.delete(key)) {
      this.probation.delete(key);
      this.protected.set(key, value, { size });
    } else {
      this.probation.set(key, value, { size });
    }
  }

  /** The value held for the key, without counting as a request for it (no promotion, no change of its recency). */
  peek(key: K): V | undefined {
    return this.protected.peek(key) ?? this.probation.peek(key);
  }

  /** Whether the key is held, without counting as a request for it. */
  has(key: K): boolean {
    return this.protected.has(key) || this.probation.has(key);
  }

  delete(key: K): void {
    this.protected.delete(key);
    this.probation.delete(key);
  }

  /**
   * Deletes every entry `isDead` says will never be asked for again (no ghost is kept for it). It walks every entry,
   * so it is for sweeps now and then (cache-sweep.ts), never for the request path.
   */
  deleteWhere(isDead: (value: V, key: K) => boolean): void {
    for (const segment of [this.probation, this.protected]) {
      const dead: K[] = [];
      segment.forEach((value, key) => {
        if (isDead(value, key)) dead.push(key);
      });
      for (const key of dead) segment.delete(key);
    }
  }

  get calculatedSize(): number {
    return this.probation.calculatedSize + this.protected.calculatedSize;
  }
}
