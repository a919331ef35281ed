import type Database from "better-sqlite3";
import type { ErrorCode } from "../../schemas/errors.ts";
import type { DateWindow, PageLimit } from "../../schemas/limits.ts";
import { type DateRange, parseDateRange } from "../economics/date-range.ts";
import { decodeCursor, parseEnumList, parseLimit, parseList, parseZone, splitPage } from "../http/params.ts";
import { type IndexStorage, requireIndex, withStorageErrors } from "./index-storage.ts";
import { prepared } from "./prepared.ts";

/**
 * A list parameter of a route that filters stored records: `column IN (…)` when given (at most `max` values), or with
 * `linked`, the records whose key another table links to one of the values (an event's sources, a notice's series).
 */
export interface ListParameter {
  name: string;
  column: string;
  max: number;
  /** A closed vocabulary, matched case-insensitively and compared in its canonical spelling. */
  vocabulary?: readonly string[];
  /** Codes stored in one case (country and currency codes upper, topics lower). */
  normalise?: (value: string) => string;
  linked?: (placeholders: string) => string;
}

export const upperCase = (value: string) => value.toUpperCase();

export interface RecordFilter {
  where: string;
  values: string[];
}

/** A base condition and every list parameter the query gives, read in the order listed. */
export function recordFilter(
  base: RecordFilter,
  query: URLSearchParams,
  parameters: readonly ListParameter[],
): RecordFilter {
  const clauses = [base.where];
  const values = [...base.values];
  for (const { name, column, max, vocabulary, normalise, linked } of parameters) {
    const raw = query.get(name);
    const given = vocabulary ? parseEnumList(raw, vocabulary, max, name) : parseList(raw, max, name);
    if (given === null) continue;
    const placeholders = given.map(() => "?").join(", ");
    clauses.push(`${column} IN (${linked ? linked(placeholders) : placeholders})`);
    values.push(...(normalise ? given.map(normalise) : given));
  }
  return { where: clauses.join(" AND "), values };
}

/** One page of a table's JSON records matching a filter, in `order`, from an offset into the filtered set. */
export function readRecordPage<T>(
  db: Database.Database,
  table: "events" | "news",
  filter: RecordFilter,
  order: string,
  offset: number,
  limit: number,
): { records: T[]; more: boolean } {
  const rows = prepared(db, `SELECT record FROM ${table} WHERE ${filter.where} ORDER BY ${order} LIMIT ? OFFSET ?`)
    .pluck()
    .all(...filter.values, limit + 1, offset) as string[];
  const page = splitPage(rows, limit);
  return { records: page.rows.map((row) => JSON.parse(row) as T), more: page.more };
}

/** A route listing stored records within a date window (the event and news lists): everything but the query. */
export interface Listing<T> {
  window: DateWindow;
  rangeError: ErrorCode;
  /** The window's condition: an event's scheduled time or date, an announcement's publication. */
  within: (range: DateRange, zone: string) => RecordFilter;
  filters: readonly ListParameter[];
  /** The `limit` rule; a number reads that many from the start, ignoring limit and cursor (an unpaged feed). */
  page: PageLimit | number;
  read: (db: Database.Database, filter: RecordFilter, offset: number, limit: number) => { records: T[]; more: boolean };
}

/**
 * One page of a listing. Parameters are read in one order, which decides the error when several are bad: tz, from/to,
 * the list filters, limit, cursor; then the published index (503 only for a well-formed request).
 */
export function readListing<T>(storage: IndexStorage, query: URLSearchParams, now: number, listing: Listing<T>) {
  const zone = parseZone(query.get("tz"));
  const range = parseDateRange(query, now, { zone, window: listing.window, errorCode: listing.rangeError });
  const filter = recordFilter(listing.within(range, zone), query, listing.filters);
  const { page: rule } = listing;
  const limit = typeof rule === "number" ? rule : parseLimit(query.get("limit"), rule);
  const offset = typeof rule === "number" ? 0 : decodeCursor(query.get("cursor"));
  const index = requireIndex(storage);
  const page = withStorageErrors(() => listing.read(index.db, filter, offset, limit));
  return { zone, range, index, offset, records: page.records, more: page.more };
}
