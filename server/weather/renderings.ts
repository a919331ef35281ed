import { IdleDroppingLru } from "../memory/cache-sweep.ts";
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
  render<P>(
    stored: StoredPayload,
    variant: string,
    read: (stored: StoredPayload) => P,
    render: (payload: P) => Rendering<unknown>,
  ): Rendering<SerialisedData>;
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

/** `now` (monotonic ms, performance.now by default) tells how long a rendering has gone unused (cache-sweep.ts). */
export function createRenderings(maxBytes: number = DEFAULT_RENDERING_BYTES, now?: () => number): Renderings {
  // A replaced payload's renderings are never asked for again (its serial is gone): dropped once idle, not left to
  // fill the bound.
  const kept = new IdleDroppingLru<string, Rendering<SerialisedData>>(
    {
      maxSize: maxBytes,
      sizeCalculation: (rendering, key) => rendering.data.heldBytes + key.length + ENTRY_OVERHEAD_BYTES,
    },
    now,
  );
  return {
    render(stored, variant, read, render) {
      const key = `${stored.serial}\n${variant}`;
      let rendering = kept.get(key);
      if (!rendering) {
        const fresh = render(read(stored));
        rendering = { data: new SerialisedData(JSON.stringify(fresh.data)), meta: fresh.meta };
        kept.set(key, rendering);
      }
      return rendering;
    },
    get bytes() {
      return kept.calculatedSize;
    },
  };
}
