import type Database from "better-sqlite3";
import type { ServedEventRecord } from "../../schemas/event-record.ts";
import type { ServedNewsRecord } from "../../schemas/news-record.ts";
import { parseEnumList, parseList, splitPage } from "../http/params.ts";
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

/** The record each table's `record` column holds, as JSON. */
interface StoredRecords {
  events: ServedEventRecord;
  news: ServedNewsRecord;
}

/**
 * One page of a table's JSON records matching a filter, in `order`, from an offset into the filtered set. The records
 * are read as the types their writers build them as (cli/ingest/event-record.ts, cli/ingest/index/publish-news.ts),
 * which the compiler checks there.
 */
export function readRecordPage<Table extends keyof StoredRecords>(
  db: Database.Database,
  table: Table,
  filter: RecordFilter,
  order: string,
  offset: number,
  limit: number,
): { records: StoredRecords[Table][]; more: boolean } {
  const rows = prepared(db, `SELECT record FROM ${table} WHERE ${filter.where} ORDER BY ${order} LIMIT ? OFFSET ?`)
    .pluck()
    .all(...filter.values, limit + 1, offset) as string[];
  const page = splitPage(rows, limit);
  return { records: page.rows.map((row) => JSON.parse(row) as StoredRecords[Table]), more: page.more };
}
