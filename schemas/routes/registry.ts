import { COMMON_ERROR_CODES } from "../errors.ts";
import { PAGE_LIMITS, PUBLIC_CACHE_SECONDS } from "../limits.ts";
import { indicatorDetailSchema, indicatorListingSchema, seriesListingSchema } from "../responses/registry.ts";
import { CATEGORIES, REGIONS } from "../vocabularies.ts";
import { enumParameter, limitParameter, slugPathParameter } from "./parameters.ts";
import type { RouteSpec } from "./route-spec.ts";

const registry = {
  method: "GET",
  tag: "registry",
  access: "PUBLIC",
  scope: null,
  requiresDurableStorage: false,
  publicCacheSeconds: PUBLIC_CACHE_SECONDS.registry,
  metaFields: [],
} as const;

export const registryRoutes: RouteSpec[] = [
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
    summary: "Series definitions (no values), in registry order",
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
      limitParameter(PAGE_LIMITS.seriesListing),
    ],
    dataSchema: seriesListingSchema,
    metaFields: ["totalMatching"],
  },
];
