import { arrayOf, bool, enumOf, int, nullable, obj, str } from "../json-schema.ts";
import {
  CATEGORIES,
  FREQUENCIES,
  PUBLISHERS,
  REGIONS,
  SEASONAL_ADJUSTMENTS,
  SERIES_TRANSFORMATIONS,
  SLUG_PATTERN,
} from "../vocabularies.ts";

export const indicatorFamilySchema = obj({
  slug: str({ pattern: SLUG_PATTERN }),
  name: str(),
  category: enumOf(CATEGORIES),
  description: str(),
  relatedFamilySlugs: arrayOf(str()),
});

export const seriesDefinitionSchema = obj({
  slug: str({ pattern: SLUG_PATTERN }),
  family: str(),
  name: str(),
  publisher: enumOf(PUBLISHERS),
  country: nullable(str({ pattern: "^[A-Z]{2}$" })),
  region: nullable(enumOf(REGIONS)),
  frequency: enumOf(FREQUENCIES),
  unit: obj({ code: str(), scale: int() }),
  seasonalAdjustment: enumOf(SEASONAL_ADJUSTMENTS),
  transformation: enumOf(SERIES_TRANSFORMATIONS),
  scope: str(),
  officialSeriesUrl: str(),
  upstreamSeriesId: nullable(str()),
  derived: nullable(obj({ formula: str(), inputSeries: arrayOf(str()) })),
  active: bool(),
});

export const indicatorListingSchema = obj({
  indicators: arrayOf(indicatorFamilySchema),
  categories: arrayOf(enumOf(CATEGORIES)),
});

export const indicatorDetailSchema = obj({
  indicator: indicatorFamilySchema,
  series: arrayOf(seriesDefinitionSchema),
});

export const seriesListingSchema = obj({
  totalMatching: int({ minimum: 0 }),
  series: arrayOf(seriesDefinitionSchema),
});
