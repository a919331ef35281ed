import { PAGE_LIMITS, PLACES_MIN_QUERY_LENGTH } from "../../schemas/limits.ts";
import { ApiError } from "../http/api-error.ts";
import { parseLimit } from "../http/params.ts";
import type { RouteHandler } from "../http/route-handler.ts";
import { GEONAMES_ATTRIBUTION, GEONAMES_ATTRIBUTION_RECORD, type PlaceSearch } from "../places/search-places.ts";

/** With no gazetteer on the deployment the answer is 200 with an empty list (spec), and no attribution is owed. */
export function placesHandlers(places: PlaceSearch): Record<string, RouteHandler> {
  return {
    "public.weather.places": ({ query }) => {
      const q = (query.get("q") ?? "").trim();
      if ([...q].length < PLACES_MIN_QUERY_LENGTH) throw new ApiError("VALIDATION_FAILED", `q must have at least ${PLACES_MIN_QUERY_LENGTH} characters.`);
      const limit = parseLimit(query.get("limit"), PAGE_LIMITS.places);
      const available = places.available();
      return {
        data: { places: places.search(q, limit), attribution: available ? GEONAMES_ATTRIBUTION : null },
        meta: { attributionRecords: available ? [GEONAMES_ATTRIBUTION_RECORD] : [] },
      };
    },
  };
}
