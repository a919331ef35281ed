import { join } from "node:path";
import { DATA_FILES } from "../../schemas/data-files.ts";
import type { Static } from "../../schemas/json-schema.ts";
import { PAGE_LIMITS } from "../../schemas/limits.ts";
import { PLACES_INDEX_VERSION } from "../../schemas/places-ddl.ts";
import { PUBLISHER_TERMS } from "../../schemas/publishers.ts";
import type { placeSchema } from "../../schemas/responses/weather.ts";
import { createReloadingDatabase } from "../files/reloading-file.ts";
import { attributionRecord } from "../http/attribution-records.ts";
import { foldPlaceName } from "./place-names.ts";

/** One place as the places route serves it; the zone is the point's (server/places/point-zone.ts). */
type PlaceRecord = Static<typeof placeSchema>;

export interface PlaceSearch {
  /** Without a published gazetteer, every search answers []. */
  search(query: string, limit: number): PlaceRecord[];
}

const { attributionText: text, required, licenseName, licenseUrl } = PUBLISHER_TERMS.GEONAMES;
/** The credit every answer with places carries. */
export const GEONAMES_ATTRIBUTION = { text, required, licenseName, licenseUrl };

/** For meta.attributionRecords: the service folds names, drops fields and reads zero populations as unknown. */
export const GEONAMES_ATTRIBUTION_RECORD = attributionRecord("GEONAMES", true);

/** No GeoNames name is longer than about 70 characters; the cut bounds the work a hostile query can ask for. */
const MAX_QUERY_CHARACTERS = 200;
const MAX_QUERY_TOKENS = 8;

/**
 * User text as an FTS5 query: every word a quoted prefix term, all required; quoting makes even OR, NEAR or NOT plain
 * words, so no input reaches FTS5's syntax. Null when the text holds no word (punctuation, emoji).
 */
export function placesMatchExpression(text: string): string | null {
  const words = foldPlaceName(text.slice(0, MAX_QUERY_CHARACTERS))
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    // A run of marks alone (an emoji's variation selector) is no word.
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
    .slice(0, MAX_QUERY_TOKENS);
  return words.length === 0 ? null : words.map((word) => `"${word}"*`).join(" ");
}

/** Searches the published gazetteer; an absent, unreadable or older one gives no results. */
export function createPlaceSearch(dataDir: string): PlaceSearch {
  const current = createReloadingDatabase(join(dataDir, DATA_FILES.places), (db) => {
    if (db.pragma("user_version", { simple: true }) !== PLACES_INDEX_VERSION)
      throw new Error("gazetteer of another format");
    return {
      db,
      // Named as the route serves them, in the record's order (the JSON key order, so the bytes and the ETag).
      find: db.prepare<[string, number], PlaceRecord>(`
        SELECT p.name, p.country_code AS countryCode, p.admin_code AS adminArea, p.latitude, p.longitude,
          p.population, p.time_zone AS timeZone
        FROM places_fts JOIN places p ON p.id = places_fts.rowid
        WHERE places_fts MATCH ?
        ORDER BY p.population DESC NULLS LAST, p.name, p.id
        LIMIT ?`),
    };
  });
  return {
    search(query, limit) {
      const gazetteer = current();
      const expression = placesMatchExpression(query);
      if (!gazetteer || !expression) return [];
      // The route clamps limit; this bound keeps any other caller from reading out the whole gazetteer.
      const bounded = Math.min(Math.max(Math.trunc(limit), 0), PAGE_LIMITS.places.max);
      return gazetteer.find.all(expression, bounded);
    },
  };
}
