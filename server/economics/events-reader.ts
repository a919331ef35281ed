import type Database from "better-sqlite3";
import { type RecordFilter, readRecordPage } from "../storage/record-pages.ts";
import type { DateRange } from "./date-range.ts";

/** `source=`: the events whose release one of the sources lists. */
export const EVENT_SOURCES = (placeholders: string) =>
  `SELECT event_id FROM event_sources WHERE source IN (${placeholders})`;

/** The credentialed rule: instants reduced to UTC calendar dates and compared with `scheduledDate`. */
export const utcDatesWindow = (range: DateRange): RecordFilter => ({
  where: "scheduled_date >= ? AND scheduled_date <= ?",
  values: [range.fromDate, range.toDate],
});

/** The public inclusive window: timed events by their instant, date-only events by the dates asked for in `zone`. */
export const localWindow = ({ from, toInclusive }: DateRange, zone: string): RecordFilter => ({
  where:
    "((scheduled_at IS NOT NULL AND scheduled_at >= ? AND scheduled_at <= ?) OR (scheduled_at IS NULL AND scheduled_date >= ? AND scheduled_date <= ?))",
  values: [
    from.toUTC().toISO()!,
    toInclusive.toUTC().toISO()!,
    from.setZone(zone).toISODate()!,
    toInclusive.setZone(zone).toISODate()!,
  ],
});

/** Events of the index matching a filter, ordered by scheduled date ascending (then time, then id). */
export function readEvents(db: Database.Database, filter: RecordFilter, offset: number, limit: number) {
  const order = "scheduled_date, scheduled_at IS NULL, scheduled_at, id";
  return readRecordPage(db, "events", filter, order, offset, limit);
}
