import type { ServedEventRecord } from "../../schemas/event-record.ts";
import { SOURCE_PUBLISHERS } from "../../schemas/publishers.ts";
import type { BuiltRegistry, Series } from "../../schemas/registry.ts";
import { PublisherSet } from "../http/attribution-records.ts";
import { seriesBySlug } from "../registry/registry-queries.ts";

/**
 * Which publishers' data an economics answer carries, read from the rows it serves (never from the question asked).
 * `modifiedByService` only for a value the service computed (a derived series); the rest is restated, not changed.
 */

function addSource(set: PublisherSet, sourceId: string): void {
  if (Object.hasOwn(SOURCE_PUBLISHERS, sourceId))
    set.add(SOURCE_PUBLISHERS[sourceId as keyof typeof SOURCE_PUBLISHERS]);
}

/** A served value of a registered series: its publisher's data, changed by the service when the series is derived. */
function addSeriesValue(set: PublisherSet, registry: BuiltRegistry | null, slug: string): void {
  const series = registry && seriesBySlug(registry, slug);
  if (series) set.add(series.publisher, series.derived !== null);
}

/**
 * Events: the release's publisher, each listing calendar's publisher, and the series publisher of a value shown
 * (actual or previous). Without a registry, values count as the release publisher's, as every registered release
 * holds.
 */
export function eventPublishers(
  records: readonly Pick<ServedEventRecord, "release" | "sources" | "values">[],
  registry: BuiltRegistry | null,
): PublisherSet {
  const set = new PublisherSet();
  for (const record of records) {
    set.add(record.release.publisher);
    for (const source of record.sources) addSource(set, source.sourceId);
    for (const value of [record.values.actual, record.values.previous])
      if (value && value.value !== null) addSeriesValue(set, registry, value.seriesSlug);
  }
  return set;
}

/** Observations of one series: its publisher's data when the page holds any period, none for an empty page. */
export function observationPublishers(series: Series, observationCount: number): PublisherSet {
  const set = new PublisherSet();
  if (observationCount > 0) set.add(series.publisher, series.derived !== null);
  return set;
}

/**
 * Release records: the publisher of each series with a value; a series with nothing ingested shows no publisher data.
 */
export function releasePublishers(
  releases: readonly { series: { slug: string }; availability: string }[],
  registry: BuiltRegistry,
): PublisherSet {
  const set = new PublisherSet();
  for (const release of releases)
    if (release.availability === "AVAILABLE") addSeriesValue(set, registry, release.series.slug);
  return set;
}

/** What a news record carries of publishers: the announcement itself and the series values it links to. */
export interface NewsAttributionFacts {
  source: string;
  links: { series: readonly { slug: string; value: { value: string | null } | null }[] };
}

/** Announcements: each its publisher's own (its feed, or Eurostat's calendar), plus linked values' publishers. */
export function newsPublishers(records: readonly NewsAttributionFacts[], registry: BuiltRegistry | null): PublisherSet {
  const set = new PublisherSet();
  for (const record of records) {
    addSource(set, record.source);
    for (const link of record.links.series) if (link.value) addSeriesValue(set, registry, link.slug);
  }
  return set;
}
