import type { CalendarSkipReason } from "../../schemas/vocabularies.ts";
import type { SkippedCalendarRecord } from "./records.ts";

/**
 * The records of one source that did not become events for one reason, as the run summary names them: compact enough
 * for every run record (the ledger's `skipped_calendar_records` keeps each record).
 */
export interface SkippedByReason {
  reason: CalendarSkipReason;
  /** Records skipped for this reason over the run's documents (a record listed by two snapshots counts twice). */
  count: number;
  /** Each distinct title with the adapter's words for it: how many distinct records, and the first of them. */
  titles: {
    title: string | null;
    detail: string;
    records: number;
    first: { record: string; scheduledDate: string | null };
  }[];
}

/** Adds one document's skipped records to a source's tally, grouped by reason in the vocabulary's order. */
export function tallySkipped(
  tally: SkippedByReason[],
  skipped: readonly SkippedCalendarRecord[],
  seen: Set<string>,
): SkippedByReason[] {
  const byReason = new Map(
    tally.map((entry) => [entry.reason, { ...entry, titles: entry.titles.map((title) => ({ ...title })) }]),
  );
  for (const record of skipped) {
    const entry = byReason.get(record.kind) ?? { reason: record.kind, count: 0, titles: [] };
    entry.count++;
    byReason.set(record.kind, entry);
    const key = `${record.kind}\n${record.record}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const title = entry.titles.find((known) => known.title === record.title && known.detail === record.reason);
    if (title) title.records++;
    else
      entry.titles.push({
        title: record.title,
        detail: record.reason,
        records: 1,
        first: { record: record.record, scheduledDate: record.scheduledDate },
      });
  }
  return [...byReason.values()].sort((a, b) => a.reason.localeCompare(b.reason));
}

/** Titles past this many are summed up in one "and N more" on the command line; the run record keeps them all. */
const TITLES_SHOWN = 6;

/**
 * Lines for the end of `service ingest`: per source and reason, how many records were skipped and which titles, the
 * most frequent first (`"ECB GovC: non-monetary policy meeting (virtual)" ×18`).
 */
export function skippedLines(sources: readonly { source: string; skipped?: SkippedByReason[] }[]): string[] {
  const lines: string[] = [];
  for (const { source, skipped } of sources) {
    for (const entry of skipped ?? []) {
      const labels = new Map<string, number>();
      for (const { title, records, first } of entry.titles) {
        // A wrong date is the point of its skip, so it is shown; other records group by title.
        const label =
          title === null
            ? first.record
            : entry.reason === "DATE_THE_SOURCE_GETS_WRONG"
              ? `"${title}" (record ${first.record}, ${first.scheduledDate})`
              : `"${title}"`;
        labels.set(label, (labels.get(label) ?? 0) + records);
      }
      const ranked = [...labels].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      const shown = ranked.slice(0, TITLES_SHOWN).map(([label, count]) => (count > 1 ? `${label} ×${count}` : label));
      const more = ranked.length > TITLES_SHOWN ? `, and ${ranked.length - TITLES_SHOWN} more` : "";
      lines.push(`skipped ${source} ${entry.reason} ${entry.count}: ${shown.join(", ")}${more}`);
    }
  }
  return lines;
}
