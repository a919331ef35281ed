import type Database from "better-sqlite3";
import type { IndexObservationRow } from "../../schemas/index-ddl.ts";
import type { Series } from "../../schemas/registry.ts";
import { type DerivedInput, provenanceOf } from "../../schemas/value-provenance.ts";
import { splitPage } from "../http/params.ts";
import { prepared } from "../storage/prepared.ts";

/**
 * An observation as served (spec "Observation"): the current vintage of its period, what it replaced, its provenance.
 * A publisher's missing value is null with the publisher's own status and note, never left out.
 */
function observationView(row: IndexObservationRow, series: Series) {
  return {
    referencePeriod: row.reference_period,
    value: row.value,
    publicationStatus: row.publication_status,
    publisherNote: row.note,
    revisionCount: row.revision_count,
    isRevision: row.revision_count > 0,
    previousValue: row.previous_value,
    sourceUpdatedAt: row.source_updated_at,
    ingestedAt: row.ingested_at,
    provenance: provenanceOf(row),
    ...derivedPart(row, series),
  };
}

/** `derived` (formula and inputs) for a value the service computed; nothing for a publisher's value. */
export function derivedPart(
  row: { derived_inputs: string | null },
  series: Series,
): { derived?: { formula: string; inputs: DerivedInput[] } } {
  return series.derived && row.derived_inputs
    ? { derived: { formula: series.derived.formula, inputs: JSON.parse(row.derived_inputs) as DerivedInput[] } }
    : {};
}

/** Period codes compare as strings (spec); `LAST_PERIOD` sorts after every code. */
export interface PeriodRange {
  from: string | null;
  to: string | null;
}
export const LAST_PERIOD = "\uffff";

/** One page of a series' periods, oldest first. */
export function readObservationPage(
  db: Database.Database,
  series: Series,
  range: PeriodRange,
  offset: number,
  limit: number,
) {
  const rows = prepared(
    db,
    `SELECT * FROM observations WHERE series_slug = ? AND reference_period >= ? AND reference_period <= ?
    ORDER BY reference_period LIMIT ? OFFSET ?`,
  ).all(series.slug, range.from ?? "", range.to ?? LAST_PERIOD, limit + 1, offset) as IndexObservationRow[];
  const page = splitPage(rows, limit);
  return { observations: page.rows.map((row) => observationView(row, series)), more: page.more };
}

export function readNewestPeriods(db: Database.Database, seriesSlug: string, count: number): IndexObservationRow[] {
  const sql = "SELECT * FROM observations WHERE series_slug = ? ORDER BY reference_period DESC LIMIT ?";
  return prepared(db, sql).all(seriesSlug, count) as IndexObservationRow[];
}

export function hasObservations(db: Database.Database, seriesSlug: string): boolean {
  return prepared(db, "SELECT 1 FROM series_facts WHERE series_slug = ?").get(seriesSlug) !== undefined;
}
