import { DateTime } from "luxon";

/**
 * Which vintage of a period a release produced (spec: an event's `values.actual` is what that release published,
 * later revisions are revisions). One clock for both sides: a vintage is recorded when the document carrying it was
 * fetched from the publisher (else when it was ingested), and a release happens at its scheduled time, or for a
 * date-only release at the start of its date in the publisher's zone.
 */

export interface VintageTimes {
  sequence: number;
  document_fetched_at: string | null;
  ingested_at: string;
}

/** When a vintage was recorded, as a UTC instant. */
export function vintageRecordedAt(vintage: VintageTimes): string {
  return vintage.document_fetched_at ?? vintage.ingested_at;
}

/** When a release happens: its scheduled instant, else the start of its scheduled date in its zone (UTC instant). */
export function releaseStartsAt(event: { scheduled_at: string | null; scheduled_date: string; source_timezone: string }): string {
  if (event.scheduled_at !== null) return event.scheduled_at;
  const key = `${event.source_timezone} ${event.scheduled_date}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    if (dayStarts.size >= DAY_STARTS_KEPT) dayStarts.clear();
    start = startOfDate(event.scheduled_date, event.source_timezone);
    dayStarts.set(key, start);
  }
  return start;
}

/**
 * Starts of dates by zone, kept because luxon's zone arithmetic costs tens of microseconds and a calendar of 100,000
 * events has only a few thousand distinct release dates per zone. Cleared whole when full, to stay bounded.
 */
const dayStarts = new Map<string, string>();
const DAY_STARTS_KEPT = 50_000;

function startOfDate(date: string, zone: string): string {
  const start = DateTime.fromISO(date, { zone });
  return (start.isValid ? start : DateTime.fromISO(date, { zone: "utc" })).toUTC().toISO()!;
}

/**
 * The vintage a release produced: the first vintage of the period recorded at or after the release's time. When none
 * was, but a document read after the release still carried the period (`seenAt`), the release left the value as it
 * stood: the latest earlier vintage. Otherwise the release's figure has not been seen yet (null). Vintages oldest first.
 */
export function releaseVintage<V extends VintageTimes>(vintages: readonly V[], releaseAt: string, seenAt: string | null): V | null {
  const produced = vintages.find((vintage) => vintageRecordedAt(vintage) >= releaseAt);
  if (produced) return produced;
  return seenAt !== null && seenAt >= releaseAt ? vintages.at(-1) ?? null : null;
}
