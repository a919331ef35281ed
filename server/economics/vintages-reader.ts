import type Database from "better-sqlite3";
import type { IndexVintageRow } from "../../schemas/index-ddl.ts";
import type { Series } from "../../schemas/registry.ts";
import { provenanceOf } from "../../schemas/value-provenance.ts";
import { splitPage } from "../http/params.ts";
import { prepared } from "../storage/prepared.ts";
import { derivedPart, LAST_PERIOD, type PeriodRange } from "./observations-reader.ts";

/** Questions about the past, as ALFRED answers them; instants compare as the index's `…T…:SS.sssZ` text. */

/** Sorts after every instant: a vintage of unknown recording time compares as recorded after any `asOf`. */
const UNKNOWN_AFTER_EVERY_INSTANT = "\uffff\uffff";

type AsOfRow = IndexVintageRow & { previous_value: string | null; stated_updated_at: string | null };

/**
 * One page of periods as they stood at `asOf`: each period's newest vintage recorded by then, with its revision facts
 * as they were then; periods first recorded later are absent. `sourceUpdatedAt` is the vintage's own until the latest
 * document carrying the period was fetched, the served one from then on (the ledger keeps only the latest sighting).
 * An index built before the `last_sighted_at` column existed fails this read: STORAGE_UNAVAILABLE until the next
 * ingestion publishes.
 */
export function readAsOfPage(
  db: Database.Database,
  series: Series,
  range: PeriodRange,
  asOf: string,
  offset: number,
  limit: number,
) {
  const rows = prepared(
    db,
    `SELECT v.*, (SELECT p.value FROM vintages p WHERE p.series_slug = v.series_slug
      AND p.reference_period = v.reference_period AND p.sequence = v.sequence - 1) AS previous_value,
      CASE WHEN o.last_sighted_at <= ? AND o.revision_count = v.sequence - 1 THEN o.source_updated_at ELSE v.source_updated_at END AS stated_updated_at
    FROM vintages v JOIN observations o ON o.series_slug = v.series_slug AND o.reference_period = v.reference_period
    WHERE v.series_slug = ? AND v.reference_period >= ? AND v.reference_period <= ? AND v.recorded_at <= ?
      AND NOT EXISTS (SELECT 1 FROM vintages later WHERE later.series_slug = v.series_slug
        AND later.reference_period = v.reference_period AND later.sequence > v.sequence AND later.recorded_at <= ?)
    ORDER BY v.reference_period LIMIT ? OFFSET ?`,
  ).all(asOf, series.slug, range.from ?? "", range.to ?? LAST_PERIOD, asOf, asOf, limit + 1, offset) as AsOfRow[];
  const page = splitPage(rows, limit);
  return {
    observations: page.rows.map((row) => ({
      referencePeriod: row.reference_period,
      value: row.value,
      publicationStatus: row.publication_status,
      publisherNote: row.note,
      revisionCount: row.sequence - 1,
      isRevision: row.sequence > 1,
      previousValue: row.previous_value,
      sourceUpdatedAt: row.stated_updated_at,
      ingestedAt: row.ingested_at,
      vintage: row.sequence,
      recordedAt: row.recorded_at,
      provenance: provenanceOf(row),
      ...derivedPart(row, series),
    })),
    more: page.more,
  };
}

/** One page of periods, each with every vintage recorded (by `asOf` when given), oldest first. */
export function readVintagePage(
  db: Database.Database,
  series: Series,
  range: PeriodRange,
  asOf: string | null,
  offset: number,
  limit: number,
) {
  const until = asOf ?? LAST_PERIOD;
  // A vintage of unknown recording time (docs/data.md, Fetch times) is listed, but not as standing at any `asOf`.
  const unknownAt = asOf === null ? "" : UNKNOWN_AFTER_EVERY_INSTANT;
  const periods = prepared(
    db,
    `SELECT DISTINCT reference_period FROM vintages
    WHERE series_slug = ? AND reference_period >= ? AND reference_period <= ? AND coalesce(recorded_at, ?) <= ?
    ORDER BY reference_period LIMIT ? OFFSET ?`,
  )
    .pluck()
    .all(series.slug, range.from ?? "", range.to ?? LAST_PERIOD, unknownAt, until, limit + 1, offset) as string[];
  const page = splitPage(periods, limit);
  if (page.rows.length === 0) return { periods: [], more: false };
  const rows = prepared(
    db,
    `SELECT * FROM vintages WHERE series_slug = ? AND reference_period >= ? AND reference_period <= ?
    AND coalesce(recorded_at, ?) <= ? ORDER BY reference_period, sequence`,
  ).all(series.slug, page.rows[0], page.rows.at(-1), unknownAt, until) as IndexVintageRow[];
  const byPeriod = new Map(page.rows.map((period) => [period, [] as ReturnType<typeof vintageView>[]]));
  for (const row of rows) byPeriod.get(row.reference_period)?.push(vintageView(row, series));
  return {
    periods: [...byPeriod].map(([referencePeriod, vintages]) => ({ referencePeriod, vintages })),
    more: page.more,
  };
}

/** A vintage as served: its value and status as published, when it was recorded, and its provenance. */
const vintageView = (row: IndexVintageRow, series: Series) => ({
  sequence: row.sequence,
  value: row.value,
  publicationStatus: row.publication_status,
  publisherNote: row.note,
  sourceUpdatedAt: row.source_updated_at,
  recordedAt: row.recorded_at,
  runId: row.run_id,
  provenance: provenanceOf(row),
  ...derivedPart(row, series),
});
