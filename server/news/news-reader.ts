import type Database from "better-sqlite3";
import type { DateRange } from "../economics/date-range.ts";
import { prepared } from "../storage/prepared.ts";
import { type RecordFilter, readRecordPage } from "../storage/record-pages.ts";

/** `series=`: the announcements linked to one of the series. */
export const NEWS_SERIES = (placeholders: string) =>
  `SELECT news_id FROM news_series WHERE series_slug IN (${placeholders})`;

/** Announcements published within the range, both ends inclusive. */
export const publishedWindow = (range: DateRange): RecordFilter => ({
  where: "published_at >= ? AND published_at <= ?",
  values: [range.from.toUTC().toISO()!, range.toInclusive.toUTC().toISO()!],
});

export function readNews(db: Database.Database, filter: RecordFilter, offset: number, limit: number) {
  return readRecordPage(db, "news", filter, "published_at DESC, id", offset, limit);
}

/** The feeds' newest content change (spec `meta.dataUpdatedAt` for news), or null when there is no announcement. */
export function newsUpdatedAt(db: Database.Database): string | null {
  return prepared(db, "SELECT max(content_changed_at) FROM news").pluck().get() as string | null;
}
