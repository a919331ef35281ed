import type Database from "better-sqlite3";
import { upstreamSeriesKey, type Registry } from "../../schemas/registry.ts";
import { deriveYearAgoChange } from "./derive-series.ts";
import type { ValueLookup } from "./event-record.ts";

/**
 * Fills the index's `observations` (the current vintage of every period with its revision facts) straight from the
 * ledger, attached to the index connection as `ledger`: one INSERT…SELECT streamed in primary-key order, so the
 * vintages never pass through JavaScript however many there are. `published_at` is stamped later, from the events.
 */
export function writeServedObservations(index: Database.Database, registry: Registry): void {
  index.exec(`
    INSERT INTO observations (series_slug, reference_period, value, publication_status, revision_count, previous_value,
      source_updated_at, ingested_at, published_at, derived_inputs)
    SELECT series_slug, reference_period, value, publication_status, sequence - 1, previous_value, source_updated_at, ingested_at, NULL, NULL
    FROM (
      SELECT series_slug, reference_period, value, publication_status, sequence, source_updated_at, ingested_at,
        lag(value) OVER period AS previous_value, lead(sequence) OVER period AS later_sequence
      FROM ledger.vintages
      WINDOW period AS (PARTITION BY series_slug, reference_period ORDER BY sequence)
    )
    WHERE later_sequence IS NULL`);
  writeDerivedObservations(index, registry);
  index.exec(`INSERT INTO series_facts SELECT series_slug, max(ingested_at), count(*) FROM observations GROUP BY series_slug`);
}

/** Series the service computes, from the served values of their inputs (in registry order, so one may feed the next). */
function writeDerivedObservations(index: Database.Database, registry: Registry): void {
  const inputRows = index.prepare("SELECT reference_period, value, ingested_at FROM observations WHERE series_slug = ? ORDER BY reference_period");
  const insert = index.prepare(`INSERT INTO observations VALUES (@series_slug, @reference_period, @value, NULL, 0, NULL, NULL, @ingested_at, NULL, @derived_inputs)`);
  for (const series of registry.series) {
    if (!series.derived) continue;
    const rows = inputRows.all(series.derived.inputSeriesSlug) as { reference_period: string; value: string | null; ingested_at: string }[];
    const inputSeries = registry.series.find((candidate) => candidate.slug === series.derived!.inputSeriesSlug);
    const inputId = inputSeries?.upstream ? upstreamSeriesKey(inputSeries.upstream) : series.derived.inputSeriesSlug;
    const ingestedAt = new Map(rows.map((row) => [row.reference_period, row.ingested_at]));
    const input = new Map(rows.map((row) => [row.reference_period, row.value]));
    for (const value of deriveYearAgoChange(series.derived, inputId, input)) {
      insert.run({
        series_slug: series.slug, reference_period: value.referencePeriod, value: value.value,
        ingested_at: ingestedAt.get(value.referencePeriod)!, derived_inputs: JSON.stringify(value.inputs),
      });
    }
  }
}

/** An event's values, read back from the observations just written (primary-key seeks). */
export function servedValueLookup(index: Database.Database): ValueLookup {
  const current = index.prepare("SELECT series_slug AS seriesSlug, reference_period AS referencePeriod, value FROM observations WHERE series_slug = ? AND reference_period = ?");
  const before = index.prepare(`SELECT series_slug AS seriesSlug, reference_period AS referencePeriod, value FROM observations
    WHERE series_slug = ? AND reference_period < ? ORDER BY reference_period DESC LIMIT 1`);
  return {
    current: (slug, period) => (current.get(slug, period) as ReturnType<ValueLookup["current"]> | undefined) ?? null,
    before: (slug, period) => (before.get(slug, period) as ReturnType<ValueLookup["before"]> | undefined) ?? null,
  };
}

/** A value's `publishedAt`: the earliest release time of a confirmed event of a release publishing it, for that period. */
export function stampPublicationTimes(index: Database.Database, releasedAt: Map<string, string>): void {
  const stamp = index.prepare("UPDATE observations SET published_at = ? WHERE series_slug = ? AND reference_period = ?");
  for (const [key, at] of releasedAt) {
    const [seriesSlug, period] = key.split("\n") as [string, string];
    stamp.run(at, seriesSlug, period);
  }
}
