import type Database from "better-sqlite3";
import { splitPage } from "../http/params.ts";
import { prepared } from "../storage/prepared.ts";
import { sqlFilter } from "../storage/sql-filter.ts";

export interface NewsFilter {
  /** UTC instants (ISO), both inclusive. */
  from: string;
  to: string;
  sources: string[] | null;
  releaseFamilies: string[] | null;
  series: string[] | null;
  countries: string[] | null;
  topics: string[] | null;
  states: string[] | null;
  linkStatuses: string[] | null;
  types: string[] | null;
}

/** News events newest first, from an offset into the filtered set. */
export function readNews(
  db: Database.Database,
  filter: NewsFilter,
  offset: number,
  limit: number,
): { records: unknown[]; more: boolean } {
  const filters = sqlFilter("published_at >= ? AND published_at <= ?", [filter.from, filter.to]);
  filters.anyOf("source", filter.sources);
  filters.anyOf("release_slug", filter.releaseFamilies);
  filters.anyOf("country", filter.countries);
  filters.anyOf("topic", filter.topics);
  filters.anyOf("state", filter.states);
  filters.anyOf("link_status", filter.linkStatuses);
  filters.anyOf("type", filter.types);
  filters.anyLinked("id", (list) => `SELECT news_id FROM news_series WHERE series_slug IN (${list})`, filter.series);
  const rows = prepared(
    db,
    `SELECT record FROM news WHERE ${filters.where()} ORDER BY published_at DESC, id LIMIT ? OFFSET ?`,
  )
    .pluck()
    .all(...filters.values(), limit + 1, offset) as string[];
  const page = splitPage(rows, limit);
  return { records: page.rows.map((row) => JSON.parse(row) as unknown), more: page.more };
}

/** The feeds' newest content change (spec `meta.dataUpdatedAt` for news), or null when there is no announcement. */
export function newsUpdatedAt(db: Database.Database): string | null {
  return prepared(db, "SELECT max(content_changed_at) FROM news").pluck().get() as string | null;
}
