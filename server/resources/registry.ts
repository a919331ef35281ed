import { PAGE_LIMITS } from "../../schemas/limits.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { CATEGORIES, REGIONS, SLUG_PATTERN } from "../../schemas/vocabularies.ts";
import { ApiError } from "../http/api-error.ts";
import { NO_ATTRIBUTION } from "../http/attribution-records.ts";
import { givenValue, parseEnum, parseLimit } from "../http/params.ts";
import type { RouteHandlers } from "../http/route-handler.ts";
import { requireRegistry } from "../registry/registry-file.ts";
import { activeFamilies, familyWithSeries, matchingSeries } from "../registry/registry-queries.ts";
import { parseSearch, searchFamilies, searchSeries } from "../registry/registry-search.ts";
import { familyView, seriesView } from "../registry/registry-views.ts";

const SLUG = new RegExp(SLUG_PATTERN);

/**
 * The service's own editorial work, naming publishers' series only by id and link: no attribution records. The answers
 * serving those series' values (observations, releases) do carry them.
 */
const EDITORIAL = { staticMeta: NO_ATTRIBUTION, validUntil: Infinity };

export function registryHandlers(registrySource: () => BuiltRegistry | null): RouteHandlers {
  const registry = () => requireRegistry(registrySource);

  return {
    "v1.economics.indicators": ({ query }) => {
      const category = parseEnum(query.get("category"), CATEGORIES, "category");
      const words = parseSearch(query.get("q"));
      const built = registry();
      const families = searchFamilies(built, activeFamilies(built, category), words);
      return { data: { indicators: families.map(familyView), categories: [...CATEGORIES] }, ...EDITORIAL };
    },

    "v1.economics.indicator": ({ params }) => {
      const slug = params.slug ?? "";
      const found = SLUG.test(slug) ? familyWithSeries(registry(), slug) : null;
      if (!found) throw new ApiError("NOT_FOUND", "No indicator family has this slug.");
      return { data: { indicator: familyView(found.family), series: found.series.map(seriesView) }, ...EDITORIAL };
    },

    "v1.economics.series": ({ query }) => {
      const limit = parseLimit(query.get("limit"), PAGE_LIMITS.seriesListing);
      const words = parseSearch(query.get("q"));
      const filtered = matchingSeries(registry(), {
        indicator: givenValue(query.get("indicator")),
        country: givenValue(query.get("country"))?.toUpperCase() ?? null,
        region: parseEnum(query.get("region"), REGIONS, "region"),
      });
      const matches = searchSeries(filtered, words);
      const shape = (n: number) => ({
        data: { totalMatching: matches.length, series: matches.slice(0, n).map(seriesView) },
        meta: { totalMatching: matches.length },
      });
      return { ...shape(limit), cut: { count: Math.min(limit, matches.length), firstItems: shape }, ...EDITORIAL };
    },
  };
}
