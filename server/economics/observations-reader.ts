import type Database from "better-sqlite3";
import { splitPage } from "../http/params.ts";
import { prepared } from "../storage/prepared.ts";
import type { IndexObservationRow } from "../../schemas/index-ddl.ts";

/** An observation as served: the current vintage of its period and what it replaced (spec "Observation"). */
export function observationView(row: IndexObservationRow) {
  return {
    referencePeriod: row.reference_period,
    value: row.value,
    publicationStatus: row.publication_status,
    revisionCount: row.revision_count,
    isRevision: row.revision_count > 0,
    previousValue: row.previous_value,
    sourceUpdatedAt: row.source_updated_at,
    ingestedAt: row.ingested_at,
  };
}

/** One page of a series' periods, oldest first, `from`/`to` compared as strings (spec: period codes compare as strings). */
export function readObservationPage(db: Database.Database, seriesSlug: string, from: string | null, to: string | null, offset: number, limit: number) {
  const rows = prepared(db, `SELECT * FROM observations WHERE series_slug = ? AND reference_period >= ? AND reference_period <= ?
    ORDER BY reference_period LIMIT ? OFFSET ?`).all(seriesSlug, from || "", to || "\uffff", limit + 1, offset) as IndexObservationRow[];
  const page = splitPage(rows, limit);
  return { observations: page.rows.map(observationView), more: page.more };
}

/** The newest `count` periods of a series, newest first. */
export function readNewestPeriods(db: Database.Database, seriesSlug: string, count: number): IndexObservationRow[] {
  return prepared(db, "SELECT * FROM observations WHERE series_slug = ? ORDER BY reference_period DESC LIMIT ?").all(seriesSlug, count) as IndexObservationRow[];
}

export function hasObservations(db: Database.Database, seriesSlug: string): boolean {
  return prepared(db, "SELECT 1 FROM series_facts WHERE series_slug = ?").get(seriesSlug) !== undefined;
}
