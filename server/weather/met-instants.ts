import { LRUCache } from "lru-cache";
import { DateTime } from "luxon";

/** A time MET wrote, read: its instant and the one UTC spelling the service emits for it. */
export interface MetInstant {
  epochMs: number;
  utcIso: string;
}

/**
 * Each text read by luxon once: every step time is read up to four times and one model run's documents share about
 * ninety times; read afresh, luxon took much of the worker's time (docs/performance.md). Unreadable texts are not kept.
 */
const remembered = new LRUCache<string, MetInstant>({ max: 4096 });

/** Null when the text is no ISO 8601 time luxon can read. */
export function readMetInstant(text: string): MetInstant | null {
  let instant = remembered.get(text);
  if (instant === undefined) {
    const parsed = DateTime.fromISO(text, { zone: "utc" });
    if (!parsed.isValid) return null;
    instant = { epochMs: parsed.toMillis(), utcIso: parsed.toISO({ suppressMilliseconds: true }) };
    remembered.set(text, instant);
  }
  return instant;
}
