import { upstreamSeriesKey, type Registry, type Series } from "../../schemas/registry.ts";
import type { SourceObservation } from "./records.ts";
import type { RunContext } from "./apply-calendar.ts";
import type { Store } from "./store.ts";
import { isNewVintage } from "./vintages.ts";

export interface ObservationCounts {
  received: number;
  unregistered: number;
  appended: number;
  unchanged: number;
  evidence: number;
}

/** Looks up registry series by the publisher's identifier, and the releases that publish each series. */
export function createSeriesIndex(registry: Registry) {
  const byUpstream = new Map<string, Series>();
  for (const series of registry.series) if (series.upstream) byUpstream.set(upstreamSeriesKey(series.upstream), series);
  const releasesBySeries = new Map<string, string[]>();
  for (const release of registry.releases) {
    for (const slug of release.seriesSlugs) releasesBySeries.set(slug, [...(releasesBySeries.get(slug) ?? []), release.slug]);
  }
  return {
    seriesFor: (seriesId: string) => byUpstream.get(seriesId) ?? null,
    releasesPublishing: (seriesSlug: string) => releasesBySeries.get(seriesSlug) ?? [],
  };
}

export type SeriesIndex = ReturnType<typeof createSeriesIndex>;

/**
 * Appends a vintage for every changed value (never overwriting an earlier one), and records a verified
 * value as evidence of publication for the events of the releases that publish it, for that period.
 */
export function applyObservations(store: Store, index: SeriesIndex, observations: SourceObservation[], run: RunContext): ObservationCounts {
  const counts: ObservationCounts = { received: observations.length, unregistered: 0, appended: 0, unchanged: 0, evidence: 0 };
  store.transaction(() => {
    for (const observation of observations) {
      const series = index.seriesFor(observation.seriesId);
      if (!series) {
        counts.unregistered++;
        continue;
      }
      const current = store.currentVintage(series.slug, observation.referencePeriod);
      if (!isNewVintage(current ? { sequence: current.sequence, value: current.value, publicationStatus: current.publication_status } : undefined, observation)) {
        counts.unchanged++;
        continue;
      }
      store.appendVintage({
        series_slug: series.slug,
        reference_period: observation.referencePeriod,
        sequence: (current?.sequence ?? 0) + 1,
        value: observation.value,
        publication_status: observation.publicationStatus,
        source_updated_at: observation.sourceUpdatedAt,
        ingested_at: run.at,
        run_id: run.runId,
      });
      counts.appended++;
      if (observation.value !== null) counts.evidence += recordValueEvidence(store, index, series.slug, observation, run);
    }
  });
  return counts;
}

/** Only for events whose scheduled date has come: an earlier value of the same period belongs to an earlier release. */
function recordValueEvidence(store: Store, index: SeriesIndex, seriesSlug: string, observation: SourceObservation, run: RunContext): number {
  let recorded = 0;
  for (const releaseSlug of index.releasesPublishing(seriesSlug)) {
    for (const event of store.eventsForPeriod(releaseSlug, observation.referencePeriod)) {
      if (event.scheduled_date > run.at.slice(0, 10)) continue;
      const releasedAt = event.scheduled_at !== null && event.scheduled_at <= run.at ? event.scheduled_at : null;
      const detail = `${seriesSlug} ${observation.referencePeriod} = ${observation.value}`;
      if (store.addEvidence(event.id, "VERIFIED_VALUE", run.at, releasedAt, detail, null)) recorded++;
    }
  }
  return recorded;
}
