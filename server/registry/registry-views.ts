import { derivedInputName, type IndicatorFamily, type Series, upstreamSeriesKey } from "../../schemas/registry.ts";

/** The public shape of registry records: definitions and provenance, no operational detail. */

export function familyView(family: IndicatorFamily) {
  return {
    slug: family.slug,
    name: family.name,
    category: family.category,
    description: family.description,
    relatedFamilySlugs: family.relatedFamilySlugs,
  };
}

export function seriesView(series: Series) {
  return {
    slug: series.slug,
    family: series.familySlug,
    name: series.name,
    publisher: series.publisher,
    country: series.country,
    region: series.region,
    frequency: series.frequency,
    unit: series.unit,
    seasonalAdjustment: series.seasonalAdjustment,
    transformation: series.transformation,
    scope: series.scope,
    officialSeriesUrl: series.officialSeriesUrl,
    upstreamSeriesId: series.upstream ? upstreamSeriesKey(series.upstream) : null,
    derived: series.derived
      ? { formula: series.derived.formula, inputSeries: [derivedInputName(series.derived)] }
      : null,
    active: series.active,
  };
}
