import type Database from "better-sqlite3";
import type { ErrorCode } from "../../schemas/errors.ts";
import type { DateWindow, PageLimit } from "../../schemas/limits.ts";
import { type DateRange, parseDateRange } from "../economics/date-range.ts";
import { decodeCursor, parseLimit, parseZone } from "../http/params.ts";
import { type IndexStorage, requireIndex, withStorageErrors } from "../storage/index-storage.ts";
import { type ListParameter, type RecordFilter, recordFilter } from "../storage/record-pages.ts";

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
