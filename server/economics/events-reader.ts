import type Database from "better-sqlite3";
import type { EventRecord } from "../../cli/ingest/event-record.ts";

export interface EventFilter {
  fromDate: string;
  toDate: string;
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
  const clauses = ["scheduled_date >= ?", "scheduled_date <= ?"];
  const values: (string | number)[] = [filter.fromDate, filter.toDate];
  const anyOf = (column: string, list: string[] | null) => {
    if (list === null) return;
    clauses.push(`${column} IN (${list.map(() => "?").join(", ")})`);
    values.push(...list);
  };
  anyOf("country", filter.countries);
  anyOf("region", filter.regions);
  anyOf("currency", filter.currencies);
  anyOf("importance", filter.importance);
  anyOf("release_slug", filter.releases);
  anyOf("status", filter.statuses);
  if (filter.sources !== null) {
    clauses.push(`id IN (SELECT event_id FROM event_sources WHERE source IN (${filter.sources.map(() => "?").join(", ")}))`);
    values.push(...filter.sources);
  }
  const rows = db
    .prepare(`SELECT record FROM events WHERE ${clauses.join(" AND ")} ORDER BY scheduled_date, scheduled_at IS NULL, scheduled_at, id LIMIT ? OFFSET ?`)
    .pluck()
    .all(...values, limit + 1, offset) as string[];
  return { records: rows.slice(0, limit).map((row) => JSON.parse(row) as EventRecord), more: rows.length > limit };
}
