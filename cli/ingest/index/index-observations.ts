import type Database from "better-sqlite3";
import type { Registry } from "../../../schemas/registry.ts";

/**
 * Fills the index's `vintages` and `observations` straight from the ledger, attached to the index connection as
 * `ledger`, in INSERT…SELECTs streamed in primary-key order, so the vintages never pass through JavaScript however
 * many there are. Only registered series are served, each with the vintages of its own kind: a derived series its
 * computed vintages, any other its publisher's (a ledger key of a derivation's input is no slug, and is never served).
 * `vintages` gets every served vintage, its `recorded_at` in one format (`…T…:SS.sssZ`) so that as-of questions compare
 * instants as strings. `observations` is then read from those: the current vintage of every period with its revision
 * facts and provenance. `sourceUpdatedAt` is the newer of the vintage's and the one stated by the latest document that
 * carried the period, and `last_sighted_at` when that document was fetched (as-of answers give the served
 * `sourceUpdatedAt` from then on). `published_at` is stamped later, from the events.
 */
export function writeServedObservations(index: Database.Database, registry: Registry): void {
  index.exec("CREATE TEMP TABLE served_series (slug TEXT PRIMARY KEY, derivation TEXT NOT NULL) WITHOUT ROWID");
  const serve = index.prepare("INSERT INTO temp.served_series VALUES (?, ?)");
  for (const series of registry.series) serve.run(series.slug, series.derived ? "SERVICE_DERIVED" : "PUBLISHER_VALUE");
  index.exec(`
    INSERT INTO vintages (series_slug, reference_period, sequence, value, publication_status, recorded_at, run_id, source_updated_at,
      ingested_at, derived_inputs, source, adapter, transformation, derivation, document_sha256, document_fetched_at, note)
    SELECT v.series_slug, v.reference_period, v.sequence, v.value, v.publication_status,
      strftime('%Y-%m-%dT%H:%M:%fZ', CASE WHEN v.document_fetched_at IS NOT NULL THEN v.document_fetched_at
        WHEN v.document_sha256 IS NULL THEN v.ingested_at END),
      v.run_id, v.source_updated_at, v.ingested_at, v.derived_inputs, v.source, v.adapter, v.transformation, served.derivation,
      v.document_sha256, v.document_fetched_at, v.note
    FROM ledger.vintages v JOIN temp.served_series served ON served.slug = v.series_slug
      AND served.derivation = coalesce(v.derivation, 'PUBLISHER_VALUE')
    ORDER BY v.series_slug, v.reference_period, v.sequence`);
  index.exec("DROP TABLE temp.served_series");
  // The latest sequence of each period is read from the primary key alone, then its row and the one before it are
  // sought: a window over the vintages' whole rows cost publishing seconds on a million vintages.
  index.exec(`
    INSERT INTO observations (series_slug, reference_period, value, publication_status, revision_count, previous_value,
      source_updated_at, ingested_at, published_at, derived_inputs, source, adapter, transformation, derivation, document_sha256,
      document_fetched_at, note, last_sighted_at)
    SELECT v.series_slug, v.reference_period, v.value, v.publication_status, v.sequence - 1,
      (SELECT p.value FROM vintages p WHERE p.series_slug = v.series_slug AND p.reference_period = v.reference_period AND p.sequence < v.sequence
        ORDER BY p.sequence DESC LIMIT 1),
      CASE WHEN v.source_updated_at IS NULL OR s.source_updated_at > v.source_updated_at THEN s.source_updated_at ELSE v.source_updated_at END,
      v.ingested_at, NULL, v.derived_inputs, v.source, v.adapter, v.transformation, v.derivation, v.document_sha256, v.document_fetched_at, v.note,
      strftime('%Y-%m-%dT%H:%M:%fZ', s.seen_at)
    FROM (SELECT series_slug, reference_period, max(sequence) AS sequence FROM vintages GROUP BY series_slug, reference_period) latest
    JOIN vintages v ON v.series_slug = latest.series_slug AND v.reference_period = latest.reference_period AND v.sequence = latest.sequence
    LEFT JOIN ledger.value_sightings s ON s.series_slug = v.series_slug AND s.reference_period = v.reference_period`);
  index.exec(
    `INSERT INTO series_facts SELECT series_slug, max(ingested_at), count(*) FROM observations GROUP BY series_slug`,
  );
}

/** A value's `publishedAt`: the earliest release time of a confirmed event of a release publishing it, for that period. */
export function stampPublicationTimes(index: Database.Database, releasedAt: Map<string, string>): void {
  const stamp = index.prepare(
    "UPDATE observations SET published_at = ? WHERE series_slug = ? AND reference_period = ?",
  );
  for (const [key, at] of releasedAt) {
    const [seriesSlug, period] = key.split("\n") as [string, string];
    stamp.run(at, seriesSlug, period);
  }
}
