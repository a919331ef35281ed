import type Database from "better-sqlite3";
import { hasTable } from "../../../server/storage/has-table.ts";

/**
 * When a release's figures are in, the one rule both the due rule (due-releases.ts) and the record of found releases
 * (found-releases.ts) read:
 * - a release with series of its own upstream: when a value it published is recorded as evidence on its event
 *   (`VERIFIED_VALUE`, the first such record's time);
 * - a release whose series are all derived from publisher series read only as inputs (the ECB's monetary policy
 *   decisions: month-end levels of the key rates, which no value can verify on the day of the decision): when a
 *   document carrying every input, fetched at or after the release became due, was applied (the latest such fetch).
 *   Such a release is asked once after it becomes due, not every minute until the deadline.
 */

/** How a release's figures are known to be in. */
export type FiguresRule = { kind: "values" } | { kind: "inputs"; inputKeys: readonly string[] };

interface FiguresIn {
  /** Values: the first value evidence of the event. Inputs: the fetch that brought the last of its inputs. */
  at: string;
  by: FiguresRule["kind"];
}

interface ReleaseAwaited {
  eventId: string;
  /** When the release became due: an input fetched before it says nothing about the release. */
  dueFrom: string;
  figures: FiguresRule;
}

/** The rule on an open store: `figuresIn(release)` is null while its figures are not in. */
export function figuresInOf(db: Database.Database): (release: ReleaseAwaited) => FiguresIn | null {
  const firstValue = db
    .prepare("SELECT min(observed_at) FROM evidence WHERE event_id = ? AND kind = 'VERIFIED_VALUE'")
    .pluck();
  // A store written before value sightings were kept has none: such a release stays due until its deadline.
  const inputSeenSince = hasTable(db, "value_sightings")
    ? db.prepare("SELECT max(seen_at) FROM value_sightings WHERE series_slug = ? AND seen_at >= ?").pluck()
    : null;
  return (release) => {
    if (release.figures.kind === "values") {
      const at = firstValue.get(release.eventId) as string | null;
      return at === null ? null : { at, by: "values" };
    }
    if (!inputSeenSince) return null;
    // In the form the ledger writes its times (`toISOString`), so that the text comparison is the instants'.
    const since = new Date(Date.parse(release.dueFrom)).toISOString();
    let last = "";
    for (const key of release.figures.inputKeys) {
      const seen = inputSeenSince.get(key, since) as string | null;
      if (seen === null) return null;
      if (seen > last) last = seen;
    }
    return { at: last, by: "inputs" };
  };
}
