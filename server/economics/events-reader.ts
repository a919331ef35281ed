import type Database from "better-sqlite3";
import type { EventRecord } from "../../schemas/event-record.ts";
import { type RecordFilter, readRecordPage } from "../storage/record-pages.ts";

/** `source=`: the events whose release one of the sources lists. */
export const EVENT_SOURCES = (placeholders: string) =>
  `SELECT event_id FROM event_sources WHERE source IN (${placeholders})`;

/** The credentialed rule: instants reduced to UTC calendar dates and compared with `scheduledDate`. */
export const utcDatesWindow = (fromDate: string, toDate: string): RecordFilter => ({
  where: "scheduled_date >= ? AND scheduled_date <= ?",
  values: [fromDate, toDate],
});

/** The public inclusive window: timed events by their instant, date-only events by the dates asked for. */
export const localWindow = (
  fromInstant: string,
  toInstant: string,
  fromDate: string,
  toDate: string,
): RecordFilter => ({
  where:
    "((scheduled_at IS NOT NULL AND scheduled_at >= ? AND scheduled_at <= ?) OR (scheduled_at IS NULL AND scheduled_date >= ? AND scheduled_date <= ?))",
  values: [fromInstant, toInstant, fromDate, toDate],
});

/** Events of the index matching a filter, ordered by scheduled date ascending (then time, then id). */
export function readEvents(db: Database.Database, filter: RecordFilter, offset: number, limit: number) {
  const order = "scheduled_date, scheduled_at IS NULL, scheduled_at, id";
  return readRecordPage<EventRecord>(db, "events", filter, order, offset, limit);
}
