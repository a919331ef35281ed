import type Database from "better-sqlite3";

export interface NewsFilter {
  /** UTC instants (ISO), both inclusive (a bare `to` date has already become the start of the next day). */
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

/** News events newest first, from an offset into the filtered set. Shared by the route and any local reader. */
export function readNews(db: Database.Database, filter: NewsFilter, offset: number, limit: number): { records: unknown[]; more: boolean } {
  const clauses = ["published_at >= ?", "published_at <= ?"];
  const values: (string | number)[] = [filter.from, filter.to];
  const anyOf = (column: string, list: string[] | null) => {
    if (list === null) return;
    clauses.push(`${column} IN (${list.map(() => "?").join(", ")})`);
    values.push(...list);
  };
  anyOf("source", filter.sources);
  anyOf("release_slug", filter.releaseFamilies);
  anyOf("country", filter.countries);
  anyOf("topic", filter.topics);
  anyOf("state", filter.states);
  anyOf("link_status", filter.linkStatuses);
  anyOf("type", filter.types);
  if (filter.series !== null) {
    clauses.push(`id IN (SELECT news_id FROM news_series WHERE series_slug IN (${filter.series.map(() => "?").join(", ")}))`);
    values.push(...filter.series);
  }
  const rows = db.prepare(`SELECT record FROM news WHERE ${clauses.join(" AND ")} ORDER BY published_at DESC, id LIMIT ? OFFSET ?`)
    .pluck().all(...values, limit + 1, offset) as string[];
  return { records: rows.slice(0, limit).map((row) => JSON.parse(row) as unknown), more: rows.length > limit };
}

/** The feeds' newest content change (spec `meta.dataUpdatedAt` for news), or null when there is no announcement. */
export function newsUpdatedAt(db: Database.Database): string | null {
  return db.prepare("SELECT max(content_changed_at) FROM news").pluck().get() as string | null;
}
