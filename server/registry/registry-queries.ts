import type { BuiltRegistry, IndicatorFamily, Series } from "../../schemas/registry.ts";
import type { Category, Region } from "../../schemas/vocabularies.ts";

/** Registry look-ups: plain functions over the built registry, shared by the routes and `service query`. */

export function activeFamilies(registry: BuiltRegistry, category: Category | null): IndicatorFamily[] {
  return registry.families.filter((family) => family.active && (category === null || family.category === category));
}

/** Inactive families are omitted from the listing but, like inactive series, stay resolvable by slug. */
export function familyWithSeries(
  registry: BuiltRegistry,
  slug: string,
): { family: IndicatorFamily; series: Series[] } | null {
  const family = registry.families.find((candidate) => candidate.slug === slug);
  if (!family) return null;
  return { family, series: registry.series.filter((entry) => entry.familySlug === slug && entry.active) };
}

interface SeriesFilter {
  indicator: string | null;
  /** Already upper-cased; a comma list is passed through and matches nothing. */
  country: string | null;
  region: Region | null;
  /** Series named by slug: listed even when inactive (inactive series stay resolvable by slug). */
  slugs?: string[] | null;
}

export function matchingSeries(registry: BuiltRegistry, filter: SeriesFilter): Series[] {
  return registry.series.filter(
    (entry) =>
      (filter.slugs ? filter.slugs.includes(entry.slug) : entry.active) &&
      (filter.indicator === null || entry.familySlug === filter.indicator) &&
      (filter.country === null || entry.country === filter.country) &&
      (filter.region === null || entry.region === filter.region),
  );
}

/** Built once per published registry: an answer may look up every value's series. */
const seriesIndexes = new WeakMap<BuiltRegistry, Map<string, Series>>();

/** Any series, active or not: inactive series stay resolvable by slug. */
export function seriesBySlug(registry: BuiltRegistry, slug: string): Series | null {
  let index = seriesIndexes.get(registry);
  if (!index) {
    index = new Map(registry.series.map((series) => [series.slug, series]));
    seriesIndexes.set(registry, index);
  }
  return index.get(slug) ?? null;
}
