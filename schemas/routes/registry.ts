import { COMMON_ERROR_CODES } from "../errors.ts";
import { PAGE_LIMITS, PUBLIC_CACHE_SECONDS, REGISTRY_SEARCH } from "../limits.ts";
import { indicatorDetailSchema, indicatorListingSchema, seriesListingSchema } from "../responses/registry.ts";
import { CATEGORIES, REGIONS } from "../vocabularies.ts";
import { enumParameter, limitParameter, slugPathParameter } from "./parameters.ts";
import type { ParameterSpec, RouteSpec } from "./route-spec.ts";

/** `q` of the registry listings (server/registry/registry-search.ts). */
function searchParameter(fields: string, example: string): ParameterSpec {
  return {
    name: "q",
    in: "query",
    required: false,
    description: `Words to search for in ${fields}, case-insensitive, accents set aside; every word must match, as the start of a word (unemp matches unemployment). Results are ranked: each word scores the weight of the best field it matches (name 4, slug 3, publisher 2, ${fields.includes("description") ? "description" : "scope"} 1), highest total first, ties in registry order. Combines with the other filters. Empty is absent; more than ${REGISTRY_SEARCH.maxCharacters} characters, more than ${REGISTRY_SEARCH.maxWords} words, or no word at all gives VALIDATION_FAILED.`,
    schema: { type: "string", maxLength: REGISTRY_SEARCH.maxCharacters, examples: [example] },
  };
}

const registry = {
  method: "GET",
  tag: "registry",
  access: "PUBLIC",
  scope: null,
  requiresDurableStorage: false,
  reads: "registry",
  publicCacheSeconds: PUBLIC_CACHE_SECONDS.registry,
  metaFields: [],
} as const;

export const registryRoutes = [
  {
    ...registry,
    name: "v1.economics.indicators",
    path: "/api/v1/economics/indicators",
    summary: "Every active indicator family and the full category vocabulary",
    errorCodes: [...COMMON_ERROR_CODES, "VALIDATION_FAILED"],
    ignoredParameters: [],
    parameters: [
      enumParameter(
        "category",
        CATEGORIES,
        "Only families of this category (case-insensitive). Unknown gives VALIDATION_FAILED.",
      ),
      searchParameter("a family's name, slug, description and the publishers of its series", "unemployment"),
    ],
    dataSchema: indicatorListingSchema,
  },
  {
    ...registry,
    name: "v1.economics.indicator",
    path: "/api/v1/economics/indicators/{slug}",
    summary: "One indicator family and all of its active series",
    errorCodes: [...COMMON_ERROR_CODES, "NOT_FOUND"],
    ignoredParameters: ["category"],
    parameters: [
      slugPathParameter(
        "Family slug. A slug not matching the pattern, or unknown, gives NOT_FOUND.",
        "unemployment-rate",
      ),
    ],
    dataSchema: indicatorDetailSchema,
  },
  {
    ...registry,
    name: "v1.economics.series",
    path: "/api/v1/economics/series",
    summary: "Series definitions (no values), in registry order, or found by words (q) and ranked",
    errorCodes: [...COMMON_ERROR_CODES, "VALIDATION_FAILED"],
    ignoredParameters: [],
    parameters: [
      {
        name: "indicator",
        in: "query",
        required: false,
        description: "Family slug, exact and case-sensitive. Unknown gives an empty list.",
        schema: { type: "string", examples: ["unemployment-rate"] },
      },
      {
        name: "country",
        in: "query",
        required: false,
        description:
          "A single ISO 3166-1 alpha-2 code, upper-cased. A comma list matches nothing; a series filed under a region never matches.",
        schema: { type: "string", examples: ["US"] },
      },
      enumParameter("region", REGIONS, "A single region code (case-insensitive). Unknown gives VALIDATION_FAILED."),
      searchParameter("a series' name, slug, scope and publisher", "euro area hicp"),
      limitParameter(PAGE_LIMITS.seriesListing),
    ],
    dataSchema: seriesListingSchema,
    metaFields: ["totalMatching"],
  },
] as const satisfies readonly RouteSpec[];
