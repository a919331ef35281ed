import tzLookup from "@photostructure/tz-lookup";

/**
 * The IANA time zone of a point, from @photostructure/tz-lookup: timezone-boundary-builder's zones packed into the
 * package (about 70 KB), so the lookup needs no network and no file. Every valid point has an answer: on land the
 * zone whose boundary holds it (coarse near borders), at sea the nautical zone of its longitude (`Etc/GMT+3` is
 * UTC-3, POSIX's inverted sign). Used for the gazetteer's places at build and for `tz=auto` on the weather routes.
 *
 * No cache in front of it: a lookup is a few dozen nanoseconds of arithmetic on the packed table, less than building
 * a cache key for the point would cost.
 */
export function zoneOfPoint(latitude: number, longitude: number): string {
  return tzLookup(latitude, longitude);
}
