import { parsePeriodText, type PeriodFormat, type ReferencePeriod } from "../../../schemas/reference-periods.ts";

/** Enough for every distinct period of a large run; past it the memory is simply started afresh. */
const MAX_REMEMBERED = 10_000;
const remembered = new WeakMap<readonly PeriodFormat[], Map<string, ReferencePeriod | null>>();

/**
 * `parsePeriodText`, remembered per format list. Value and calendar documents repeat the same few hundred period
 * texts across thousands of rows and documents, and each luxon parse costs 70-100 µs (it tries format after format):
 * unremembered it was a fifth of a million-row ingestion. The periods returned are shared, so callers must not
 * change them.
 */
export function readPeriodText(text: string, formats: readonly PeriodFormat[]): ReferencePeriod | null {
  let known = remembered.get(formats);
  if (!known) remembered.set(formats, (known = new Map()));
  if (!known.has(text)) {
    if (known.size >= MAX_REMEMBERED) known.clear();
    known.set(text, parsePeriodText(text, formats));
  }
  return known.get(text)!;
}
