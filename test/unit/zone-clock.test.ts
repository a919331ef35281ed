import { describe, expect, it } from "vitest";
import { dayBounds, localDateAndTime } from "../../server/time/zone-clock.ts";

const at = (iso: string) => Date.parse(iso);

/** The read path's zone arithmetic against days whose length or start the zone's rules move. */
describe("dayBounds", () => {
  it.each([
    // zone, date, start, end (the next day's start)
    ["Europe/Berlin", "2026-11-28", "2026-11-27T23:00:00Z", "2026-11-28T23:00:00Z"],
    ["Europe/Berlin", "2026-10-25", "2026-10-24T22:00:00Z", "2026-10-25T23:00:00Z"],
    ["America/New_York", "2026-03-08", "2026-03-08T05:00:00Z", "2026-03-09T04:00:00Z"],
    ["Asia/Kolkata", "2026-11-28", "2026-11-27T18:30:00Z", "2026-11-28T18:30:00Z"],
    // The change at midnight: the day begins at 01:00 and lasts 23 hours, up to the next day's own midnight (a day
    // after its 01:00 start is 01:00 again, not the next day's start).
    ["Atlantic/Azores", "2026-03-29", "2026-03-29T01:00:00Z", "2026-03-30T00:00:00Z"],
    // The change back at midnight: midnight occurs twice, and the first begins the date, which lasts 25 hours.
    ["Atlantic/Azores", "2026-10-25", "2026-10-25T00:00:00Z", "2026-10-26T01:00:00Z"],
    ["America/Havana", "2026-11-01", "2026-11-01T04:00:00Z", "2026-11-02T05:00:00Z"],
  ])("%s %s", (zone, date, start, end) => {
    expect(dayBounds(date, zone)).toEqual({ start: at(start), end: at(end) });
    expect(localDateAndTime(at(start), zone).date).toBe(date);
    expect(localDateAndTime(at(end) - 1, zone).date).toBe(date);
    // Nothing before the start is of the date already.
    expect(localDateAndTime(at(start) - 1, zone).date < date).toBe(true);
  });
});
