import { DateTime } from "luxon";

/** A time MET wrote, read: its instant and the one UTC spelling the service emits for it. */
export interface MetInstant {
  epochMs: number;
  utcIso: string;
}

/**
 * MET's times, each text read by luxon once. A document is checked and then normalised, and both read every step's
 * time (normalising up to three times a step), while the documents of one model run share the same ninety or so
 * times: read afresh each time, luxon was about a fifth of the document worker's time. Forgotten wholesale past the
 * bound, which holds a few hours of steps.
 */
const MAX_REMEMBERED = 4096;
const remembered = new Map<string, MetInstant | null>();

/** Null when the text is no ISO 8601 time luxon can read. */
export function readMetInstant(text: string): MetInstant | null {
  let instant = remembered.get(text);
  if (instant === undefined) {
    const parsed = DateTime.fromISO(text, { zone: "utc" });
    instant = parsed.isValid
      ? { epochMs: parsed.toMillis(), utcIso: parsed.toISO({ suppressMilliseconds: true }) }
      : null;
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(text, instant);
  }
  return instant;
}
