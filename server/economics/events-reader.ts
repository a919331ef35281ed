import type Database from "better-sqlite3";
import type { EventRecord } from "../../schemas/event-record.ts";
import { splitPage } from "../http/params.ts";
import { prepared } from "../storage/prepared.ts";
import { sqlFilter } from "../storage/sql-filter.ts";

/**
 * `utc-dates`: the credentialed rule, instants reduced to UTC calendar dates and compared with `scheduledDate`.
 * `local`: the public inclusive window, timed events by their instant, date-only events by the dates asked for.
 */
export type EventWindow =
  | { kind: "utc-dates"; fromDate: string; toDate: string }
  | { kind: "local"; fromInstant: string; toInstant: string; fromDate: string; toDate: string };

export interface EventFilter {
  window: EventWindow;
  countries: string[] | null;
  regions: string[] | null;
  currencies: string[] | null;
  importance: string[] | null;
  releases: string[] | null;
  sources: string[] | null;
  statuses: string[] | null;
}

export interface EventPage {
  records: EventRecord[];
  /** Whether more events match after this page. */
  more: boolean;
}

/**
 * Events of the index matching a filter, ordered by scheduled date ascending (then time, then id),
 * from an offset into the filtered set. Shared by the routes and `service query`.
 */
export function readEvents(db: Database.Database, filter: EventFilter, offset: number, limit: number): EventPage {
  const { window } = filter;
  const filters =
    window.kind === "utc-dates"
      ? sqlFilter("scheduled_date >= ? AND scheduled_date <= ?", [window.fromDate, window.toDate])
      : sqlFilter(
          "((scheduled_at IS NOT NULL AND scheduled_at >= ? AND scheduled_at <= ?) OR (scheduled_at IS NULL AND scheduled_date >= ? AND scheduled_date <= ?))",
          [window.fromInstant, window.toInstant, window.fromDate, window.toDate],
        );
  filters.anyOf("country", filter.countries);
  filters.anyOf("region", filter.regions);
  filters.anyOf("currency", filter.currencies);
  filters.anyOf("importance", filter.importance);
  filters.anyOf("release_slug", filter.releases);
  filters.anyOf("status", filter.statuses);
  filters.anyLinked("id", (list) => `SELECT event_id FROM event_sources WHERE source IN (${list})`, filter.sources);
  const rows = prepared(
    db,
    `SELECT record FROM events WHERE ${filters.where()} ORDER BY scheduled_date, scheduled_at IS NULL, scheduled_at, id LIMIT ? OFFSET ?`,
  )
    .pluck()
    .all(...filters.values(), limit + 1, offset) as string[];
  const page = splitPage(rows, limit);
  return { records: page.rows.map((row) => JSON.parse(row) as EventRecord), more: page.more };
}
