import ical, { escape as escapeIcalText, ICalEventStatus } from "ical-generator";
import type { EventRecord } from "../../schemas/event-record.ts";
import { PUBLISHER_TERMS } from "../../schemas/publishers.ts";

/** The fields of an event whose change by its source changes its schedule or status: each raises the event's SEQUENCE. */
const SCHEDULING_FIELDS = new Set(["scheduledDate", "scheduledAt", "timePrecision", "status"]);

/** RFC 5545's identifier of the program that made the calendar. */
const PRODUCT = { company: "weather-economics-service", product: "economic-release-calendar", language: "EN" } as const;

/**
 * The calendar as an iCalendar feed (RFC 5545, written by ical-generator): one VEVENT per event, its UID stable across
 * runs (the event's id), DTSTAMP the last time ingestion recorded a change to it, SEQUENCE the number of times its
 * source changed its schedule or status (moved, cancelled, marked published), a timed event at its UTC instant and a date-only event as a DATE (no time invented),
 * STATUS:CANCELLED for an event the source removed, the publisher's page as URL and its credit in the description.
 */
export function calendarFeed(events: readonly EventRecord[], refreshSeconds: number): string {
  const publishers = [...new Set(events.map((event) => event.release.publisher))].sort();
  const calendar = ical({
    prodId: PRODUCT,
    name: "Official economic release calendar",
    // ical-generator writes X-WR-CALDESC as given (10.x), unlike DESCRIPTION: unescaped, its line breaks and commas would
    // end the property and strict parsers would read the credits as properties of their own. Escaped as TEXT here.
    description: escapeIcalText(
      ["Release dates as the publishers state them (BLS, Eurostat, ECB).", ...publishers.map(creditLine)].join("\n"),
      false,
    ),
    ttl: refreshSeconds,
  });
  for (const event of events) {
    calendar.createEvent({
      id: `${event.id}@weather-economics-service`,
      sequence: reschedulings(event),
      stamp: new Date(event.updatedAt),
      start: new Date(event.scheduledAt ?? `${event.scheduledDate}T00:00:00Z`),
      allDay: event.scheduledAt === null,
      summary: `${event.title} (${PUBLISHER_TERMS[event.release.publisher].name})`,
      description: description(event),
      url: event.release.officialPageUrl,
      status: event.status === "CANCELLED" ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      categories: [{ name: event.category }],
    });
  }
  // RFC 5545 3.1: every content line ends with CRLF, the last one too; ical-generator leaves END:VCALENDAR without it.
  return `${calendar.toString()}\r\n`;
}

/** Moments the schedule or status changed: a move and the status it brings are one change when detected together. */
function reschedulings(event: EventRecord): number {
  return new Set(
    event.changes.filter((change) => SCHEDULING_FIELDS.has(change.field)).map((change) => change.detectedAt),
  ).size;
}

function description(event: EventRecord): string {
  return [
    `Release: ${event.release.slug} (${PUBLISHER_TERMS[event.release.publisher].name})`,
    `Reference period: ${event.referencePeriod?.code ?? "not stated by the source"}`,
    event.scheduledAt === null
      ? `Time: not stated by the source (date in ${event.sourceTimezone})`
      : `Time: as stated by the source (${event.sourceTimezone})`,
    `Status at the source: ${event.status}`,
    `Importance: ${event.importance} (${event.importanceBasis})`,
    ...event.changes
      .filter((change) => change.field === "scheduledDate" || change.field === "scheduledAt")
      .map(
        (change) =>
          `Moved by the source from ${change.from ?? "no time"} to ${change.to ?? "no time"} (detected ${change.detectedAt})`,
      ),
    creditLine(event.release.publisher),
  ].join("\n");
}

function creditLine(publisher: keyof typeof PUBLISHER_TERMS): string {
  const terms = PUBLISHER_TERMS[publisher];
  return `${terms.attributionText}. Terms: ${terms.termsUrl}`;
}
