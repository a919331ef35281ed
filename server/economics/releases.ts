import type Database from "better-sqlite3";
import type { IndexObservationRow } from "../../schemas/index-ddl.ts";
import type { Static } from "../../schemas/json-schema.ts";
import { PUBLISHER_TERMS } from "../../schemas/publishers.ts";
import { periodEndDate } from "../../schemas/reference-periods.ts";
import type { Series } from "../../schemas/registry.ts";
import type { releasesSchema } from "../../schemas/responses/economics.ts";
import { provenanceOf } from "../../schemas/value-provenance.ts";
import { seriesView } from "../registry/registry-views.ts";
import { derivedPart, readNewestPeriods } from "./observations-reader.ts";

/**
 * The release record of each series, newest first by the end of its newest reference period: comparable across
 * publishers and frequencies (publishers' times are often not stated; ours say when we fetched). Series with nothing
 * ingested come last as UNAVAILABLE, never omitted.
 */
export function newestReleases(db: Database.Database, series: Series[], perSeries: number) {
  const records = series.map((entry) => {
    const rows = readNewestPeriods(db, entry.slug, Math.max(perSeries, 2));
    const periodEnd = rows[0] ? periodEndDate(rows[0].reference_period) : null;
    return { release: releaseOf(entry, rows, perSeries), periodEnd: periodEnd ?? "" };
  });
  records.sort(
    (a, b) => b.periodEnd.localeCompare(a.periodEnd) || a.release.series.slug.localeCompare(b.release.series.slug),
  );
  return records.map((record) => record.release);
}

type ReleaseRecord = Static<typeof releasesSchema>["releases"][number];

/** One series' release record: its newest value with revision facts, or `UNAVAILABLE` when nothing is ingested. */
function releaseOf(series: Series, rows: IndexObservationRow[], perSeries: number): ReleaseRecord {
  const [newest, previous] = rows;
  const terms = PUBLISHER_TERMS[series.publisher];
  // The series as the registry names it, without the definition's prose and operational fields.
  const { name, publisher, scope, upstreamSeriesId, derived, active, ...named } = seriesView(series);
  return {
    series: named,
    availability: newest ? "AVAILABLE" : "UNAVAILABLE",
    referencePeriod: newest ? { code: newest.reference_period } : null,
    value: newest?.value ?? null,
    publicationStatus: newest?.publication_status ?? null,
    publisherNote: newest?.note ?? null,
    publishedAt: newest?.published_at ?? null,
    sourceUpdatedAt: newest?.source_updated_at ?? null,
    ingestedAt: newest?.ingested_at ?? null,
    revision: newest
      ? { count: newest.revision_count, isRevision: newest.revision_count > 0, previousValue: newest.previous_value }
      : null,
    previous: previous
      ? {
          referencePeriod: previous.reference_period,
          value: previous.value,
          publicationStatus: previous.publication_status,
          publisherNote: previous.note,
          provenance: provenanceOf(previous),
        }
      : null,
    periods: rows.slice(0, perSeries).map((row) => ({
      referencePeriod: row.reference_period,
      value: row.value,
      publicationStatus: row.publication_status,
      publisherNote: row.note,
      revisionCount: row.revision_count,
      provenance: provenanceOf(row),
    })),
    provenance: newest ? provenanceOf(newest) : null,
    ...(newest ? derivedPart(newest, series) : {}),
    attribution: { text: terms.attributionText, required: terms.required },
    links: {
      observations: `/api/public/v1/economics/observations?series=${series.slug}`,
      calendar: series.country
        ? `/api/public/v1/economics/calendar?country=${series.country}`
        : `/api/public/v1/economics/calendar?region=${series.region}`,
    },
  };
}
