import { PAGE_LIMITS, PLACES_MIN_QUERY_LENGTH } from "../../schemas/limits.ts";
import { ApiError } from "../http/api-error.ts";
import { parseLimit } from "../http/params.ts";
import type { RouteHandlers } from "../http/route-handler.ts";
import { GEONAMES_ATTRIBUTION, GEONAMES_ATTRIBUTION_RECORD, type PlaceSearch } from "../places/search-places.ts";

/** GeoNames is credited when its places are served; an empty list (no match, or no gazetteer) carries no credit. */
export function placesHandlers(places: PlaceSearch): RouteHandlers {
  return {
    "public.weather.places": ({ query }) => {
      const q = (query.get("q") ?? "").trim();
      if ([...q].length < PLACES_MIN_QUERY_LENGTH)
        throw new ApiError("VALIDATION_FAILED", `q must have at least ${PLACES_MIN_QUERY_LENGTH} characters.`);
      const limit = parseLimit(query.get("limit"), PAGE_LIMITS.places);
      const found = places.search(q, limit);
      const credited = found.length > 0;
      return {
        data: { places: found, attribution: credited ? GEONAMES_ATTRIBUTION : null },
        meta: { attributionRecords: credited ? [GEONAMES_ATTRIBUTION_RECORD] : [] },
      };
    },
  };
}
