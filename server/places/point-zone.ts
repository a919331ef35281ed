import tzLookup from "@photostructure/tz-lookup";

/**
 * The IANA zone of a point from tz-lookup's packed boundaries (no network, no file): on land the zone holding it
 * (coarse near borders), at sea the nautical zone (`Etc/GMT+3` is UTC-3, POSIX's inverted sign). No cache: a lookup
 * costs less than a cache key would.
 */
export function zoneOfPoint(latitude: number, longitude: number): string {
  return tzLookup(latitude, longitude);
}
