import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { decidingDates, publishingEvent } from "../../cli/ingest/link-periods-by-value.ts";

/** The zones furthest from UTC either way, and some the calendars use. */
const ZONES = [
  "Pacific/Kiritimati",
  "Etc/GMT+12",
  "Pacific/Pago_Pago",
  "America/New_York",
  "Europe/Luxembourg",
  "Asia/Kolkata",
  "UTC",
];
const FIRST_DAY = DateTime.fromISO("2024-11-01", { zone: "utc" });
const DAYS = 12;

interface CalendarEvent {
  id: number;
  scheduled_date: string;
  scheduled_at: string | null;
  source_timezone: string;
}

const day = (offset: number) => FIRST_DAY.plus({ days: offset }).toISODate()!;
const instantAt = (duration: { days: number; hours?: number }) => FIRST_DAY.plus(duration).toJSDate().toISOString();

/** The events of the ledger's query: those dated within the window `decidingDates` gives. */
function deciding(all: CalendarEvent[], periodEnd: string, readBy: string): CalendarEvent[] {
  const window = decidingDates(periodEnd, DateTime.fromISO(readBy, { zone: "utc" }));
  return all.filter((candidate) => candidate.scheduled_date >= window.from && candidate.scheduled_date <= window.to);
}

/** A calendar event on a date, date-only or at a minute of that date in its zone (often its first or last), as the ledger stores it. */
const event = fc.record({
  date: fc.integer({ min: 0, max: DAYS }),
  zone: fc.constantFrom(...ZONES),
  minute: fc.option(fc.oneof(fc.constantFrom(0, 1439), fc.integer({ min: 0, max: 1439 }))),
});
const instant = fc
  .integer({ min: 0, max: DAYS * 24 * 60 })
  .map((minutes) => FIRST_DAY.plus({ minutes }).toJSDate().toISOString());

function events(drawn: { date: number; zone: string; minute: number | null }[]): CalendarEvent[] {
  return drawn.map(({ date, zone, minute }, id) => ({
    id,
    scheduled_date: day(date),
    source_timezone: zone,
    scheduled_at:
      minute === null
        ? null
        : DateTime.fromISO(day(date), { zone }).plus({ minutes: minute }).toUTC().toJSDate().toISOString(),
  }));
}

describe("the events that decide a period link", () => {
  it("are the same decision as the release's whole history, for any events, period end and reading", () => {
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 6 }),
        fc.integer({ min: 0, max: DAYS }),
        instant,
        (drawn, endOffset, readBy) => {
          const all = events(drawn);
          const periodEnd = day(endOffset);
          expect(publishingEvent(deciding(all, periodEnd, readBy), periodEnd, readBy)?.id).toBe(
            publishingEvent(all, periodEnd, readBy)?.id,
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("keeps an event dated before the period's end that started after one dated after it", () => {
    // Day 5 at 23:59 twelve hours behind UTC starts at 11:59Z on day 6; day 7 at midnight fourteen hours ahead starts
    // at 10:00Z on day 6. Read at noon on day 6, the day-5 event is the latest, so nothing is linked.
    const calendar = events([
      { date: 7, zone: "Pacific/Kiritimati", minute: 0 },
      { date: 5, zone: "Etc/GMT+12", minute: 1439 },
    ]);
    const periodEnd = day(6);
    const readBy = instantAt({ days: 6, hours: 12 });
    expect(publishingEvent(calendar, periodEnd, readBy)).toBeNull();
    expect(publishingEvent(deciding(calendar, periodEnd, readBy), periodEnd, readBy)).toBeNull();
  });

  it("links the latest event by the reading when it is the first after the period's end", () => {
    const calendar = events([
      { date: 10, zone: "America/New_York", minute: 510 },
      { date: 40, zone: "America/New_York", minute: 510 },
    ]);
    expect(publishingEvent(calendar, day(5), instantAt({ days: 20 }))?.id).toBe(0);
    expect(publishingEvent(calendar, day(5), instantAt({ days: 45 }))).toBeNull();
    expect(publishingEvent(calendar, day(12), instantAt({ days: 45 }))?.id).toBe(1);
  });
});
