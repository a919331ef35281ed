import { type PeriodFormat, parsePeriodText, type ReferencePeriod } from "../../../schemas/reference-periods.ts";
import { createRememberedReads } from "./remembered-reads.ts";

/** Enough for every distinct period of a large run. */
const MAX_REMEMBERED = 10_000;
const readsByFormats = new WeakMap<
  readonly PeriodFormat[],
  ReturnType<typeof createRememberedReads<ReferencePeriod | null>>
>();

/**
 * `parsePeriodText`, remembered per format list. Value and calendar documents repeat the same few hundred period
 * texts across thousands of rows and documents, and each luxon parse costs 70-100 µs (it tries format after format):
 * unremembered it was a fifth of a million-row ingestion. The periods returned are shared, so callers must not
 * change them.
 */
export function readPeriodText(text: string, formats: readonly PeriodFormat[]): ReferencePeriod | null {
  let remembered = readsByFormats.get(formats);
  if (!remembered) {
    remembered = createRememberedReads(MAX_REMEMBERED);
    readsByFormats.set(formats, remembered);
  }
  return remembered(text, (periodText) => parsePeriodText(periodText, formats));
}
