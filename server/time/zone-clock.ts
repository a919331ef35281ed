import { LRUCache } from "lru-cache";
import { DateTime, IANAZone } from "luxon";

// Zone arithmetic for the read path: luxon computes each fact once and a cache answers later requests (a DateTime per
// entry per request was most of the events route's time).

/**
 * Offsets are cached per 15 minutes of UTC time; a slice holding a transition is cached as NaN, its offsets then
 * computed exactly each time.
 */
const SLICE_MS = 15 * 60_000;
/** Bound of each cache below, in entries (a few MB at most). */
const CACHE_ENTRIES = 50_000;

const sliceOffsets = new LRUCache<string, number>({ max: CACHE_ENTRIES });
const dayStarts = new LRUCache<string, { start: number; end: number }>({ max: CACHE_ENTRIES });

/**
 * Whether luxon (the platform's ICU) can compute the zone. Luxon keeps each zone it creates, valid or not: only tz
 * database names (parseZone) and zones stored with the data reach here, so that stays a few hundred.
 */
export function isKnownZone(name: string): boolean {
  return IANAZone.create(name).isValid;
}

function zoneNamed(name: string): IANAZone {
  const zone = IANAZone.create(name);
  if (!zone.isValid) throw new RangeError(`Unknown IANA time zone: ${name}`);
  return zone;
}

/** Minutes east of UTC in `zoneName` at `epochMs`. */
function offsetMinutes(zoneName: string, epochMs: number): number {
  const zone = zoneNamed(zoneName);
  const slice = Math.floor(epochMs / SLICE_MS);
  const key = `${zoneName}|${slice}`;
  let offset = sliceOffsets.get(key);
  if (offset === undefined) {
    const first = zone.offset(slice * SLICE_MS);
    offset = first === zone.offset((slice + 1) * SLICE_MS - 1) ? first : Number.NaN;
    sliceOffsets.set(key, offset);
  }
  return Number.isNaN(offset) ? zone.offset(epochMs) : offset;
}

/** The local calendar date and `HH:mm` of an instant in a zone. */
export function localDateAndTime(epochMs: number, zoneName: string): { date: string; time: string } {
  const wall = new Date(epochMs + offsetMinutes(zoneName, epochMs) * 60_000).toISOString();
  return { date: wall.slice(0, 10), time: wall.slice(11, 16) };
}

/** When a calendar date (`YYYY-MM-DD`) starts in a zone, and when the next one starts. */
export function dayBounds(date: string, zoneName: string): { start: number; end: number } {
  const key = `${zoneName}|${date}`;
  let bounds = dayStarts.get(key);
  if (!bounds) {
    // Reached from the day before, whose offset luxon keeps as its first guess: where midnight occurs twice (a change
    // back at 00:00) that picks the first, which begins the date, whatever the time of year it is asked.
    const dayBefore = DateTime.fromISO(date, { zone: "utc" }).minus({ days: 1 }).toISODate();
    if (dayBefore === null) throw new RangeError(`not a calendar date: ${date}`);
    const day = DateTime.fromISO(dayBefore, { zone: zoneNamed(zoneName) })
      .plus({ days: 1 })
      .startOf("day");
    // The next day's own start: where a day begins after midnight (a change at 00:00), 24 h later is not midnight.
    bounds = { start: day.toMillis(), end: day.plus({ days: 1 }).startOf("day").toMillis() };
    dayStarts.set(key, bounds);
  }
  return bounds;
}
