import { arrayOf, bool, enumOf, int, type JsonSchema, nullable, obj, str } from "./json-schema.ts";
import type { BuiltRegistry } from "./registry.ts";
import { compileAssertion } from "./validator.ts";
import {
  CALENDAR_SOURCES,
  CATEGORIES,
  FREQUENCIES,
  IMPORTANCE_LEVELS,
  OBSERVATION_APIS,
  PUBLISHERS,
  REGIONS,
  SEASONAL_ADJUSTMENTS,
  SERIES_TRANSFORMATIONS,
  SLUG_PATTERN,
} from "./vocabularies.ts";

/** JSON Schemas of the curated registry sources (`data/registry/*.json`), checked when the CLI builds registry JSON. */

const slug = str({ pattern: SLUG_PATTERN });
const strict = (schema: JsonSchema): JsonSchema => ({ ...schema, additionalProperties: false });

export const familySourceSchema = strict(
  obj({
    slug,
    name: str(),
    category: enumOf(CATEGORIES),
    description: str(),
    relatedFamilySlugs: arrayOf(slug),
    active: bool(),
  }),
);

const upstreamSchema = strict(obj({ api: enumOf(OBSERVATION_APIS), id: str(), key: str() }, ["key"]));

export const seriesSourceSchema = strict(
  obj({
    slug,
    familySlug: slug,
    name: str(),
    publisher: enumOf(PUBLISHERS),
    country: nullable(str({ pattern: "^[A-Z]{2}$" })),
    region: nullable(enumOf(REGIONS)),
    frequency: enumOf(FREQUENCIES),
    unit: strict(obj({ code: str(), scale: int() })),
    seasonalAdjustment: enumOf(SEASONAL_ADJUSTMENTS),
    transformation: enumOf(SERIES_TRANSFORMATIONS),
    scope: str(),
    officialSeriesUrl: str({ pattern: "^https://" }),
    upstream: nullable(upstreamSchema),
    derived: nullable(
      strict(
        obj(
          {
            formula: str(),
            kind: enumOf([
              "PERCENT_CHANGE_YEAR_AGO",
              "PERCENT_CHANGE_PREVIOUS_PERIOD",
              "LEVEL_IN_FORCE_AT_PERIOD_END",
              "VALUE_ON_LAST_TARGET_BUSINESS_DAY",
            ]),
            inputSeriesSlug: slug,
            inputUpstream: upstreamSchema,
            decimalPlaces: int({ minimum: 0 }),
          },
          ["inputSeriesSlug", "inputUpstream", "decimalPlaces"],
        ),
      ),
    ),
    active: bool(),
  }),
);

export const releaseSourceSchema = strict(
  obj(
    {
      slug,
      name: str(),
      publisher: enumOf(PUBLISHERS),
      officialPageUrl: str({ pattern: "^https://" }),
      country: nullable(str({ pattern: "^[A-Z]{2}$" })),
      region: nullable(enumOf(REGIONS)),
      currency: str({ pattern: "^[A-Z]{3}$" }),
      category: enumOf(CATEGORIES),
      importance: enumOf(IMPORTANCE_LEVELS),
      importanceBasis: str(),
      seriesSlugs: arrayOf(slug),
      headlineSeriesSlugs: arrayOf(slug),
      titlePatterns: {
        type: "object",
        propertyNames: enumOf(CALENDAR_SOURCES),
        additionalProperties: arrayOf(str(), { minItems: 1 }),
      },
      newsTitlePatterns: arrayOf(str(), { minItems: 1 }),
    },
    ["newsTitlePatterns"],
  ),
);

export const builtRegistrySchema = strict(
  obj({
    builtAt: str({ format: "date-time" }),
    families: arrayOf(familySourceSchema),
    series: arrayOf(seriesSourceSchema),
    releases: arrayOf(releaseSourceSchema),
  }),
);

/**
 * The registry JSON checked against `builtRegistrySchema`, throwing with what is wrong: by the CLI before it publishes
 * one, and by every reader of a published one (the server, `service query`, an object-storage follower), since valid
 * JSON of another shape would otherwise fail each request that reads it.
 */
export const assertBuiltRegistry = compileAssertion<BuiltRegistry>(builtRegistrySchema, "registry");
