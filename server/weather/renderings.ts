import { createCacheSweep, unusedForAMinute, type Used } from "../memory/cache-sweep.ts";
import { SegmentedLru } from "../memory/segmented-lru.ts";
import { SerialisedData } from "../http/respond.ts";
import type { StoredPayload } from "./stored-payload.ts";

/**
 * The `data` sections the weather routes built from a stored payload, serialised once and kept by payload and by
 * everything of the request that shapes them (route, point, units, zone, counts). A dashboard polling one forecast
 * at least once a minute then costs a lookup, not a daily assembly and a serialisation. Bounded by bytes, and a
 * rendering unused for a minute is dropped (a slower poller pays the rendering again, about 0.3-2 ms). `read` is what
 * of the payload the rendering needs (stored-payload.ts: its head, or the whole).
 */
export interface Renderings {
  render<P>(stored: StoredPayload, variant: string, read: (stored: StoredPayload) => P, render: (payload: P) => Rendering<unknown>): Rendering<SerialisedData>;
  /** Bytes currently held, as counted against the bound. */
  readonly bytes: number;
}

/** A route's `data` section and the `meta` facts that depend on it alone (the credentialed forecast's `dayCount`). */
export interface Rendering<D> {
  data: D;
  meta: Record<string, unknown>;
}

/** 24 MB of rendered weather: about two thousand forecasts, or twenty thousand current readings. */
const DEFAULT_RENDERING_BYTES = 24 * 1024 * 1024;

const ENTRY_OVERHEAD_BYTES = 256;

/** `now` is monotonic milliseconds, for how long a rendering has gone unused (cache-sweep.ts). */
export function createRenderings(maxBytes: number = DEFAULT_RENDERING_BYTES, now: () => number = () => performance.now()): Renderings {
  const kept = new SegmentedLru<string, Used<Rendering<SerialisedData>>>({
    maxSize: maxBytes,
    sizeCalculation: ({ value }, key) => value.data.heldBytes + key.length + ENTRY_OVERHEAD_BYTES,
  });
  // A replaced payload's renderings are never asked for again (its serial is gone): dropped once idle, not left to
  // fill the bound.
  const sweep = createCacheSweep(kept, unusedForAMinute, now);
  return {
    render(stored, variant, read, render) {
      const key = `${stored.serial}\n${variant}`;
      const used = kept.get(key);
      if (used) {
        used.usedAt = now();
        return used.value;
      }
      const fresh = render(read(stored));
      const rendering = { data: new SerialisedData(JSON.stringify(fresh.data)), meta: fresh.meta };
      kept.set(key, { value: rendering, usedAt: now() });
      sweep.noteKept();
      return rendering;
    },
    get bytes() {
      return kept.calculatedSize;
    },
  };
}
