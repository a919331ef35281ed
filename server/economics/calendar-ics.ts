import ical, { escape as escapeIcalText, ICalEventStatus } from "ical-generator";
import type { ServedEventRecord } from "../../schemas/event-record.ts";
import { PUBLISHER_TERMS } from "../../schemas/publishers.ts";

/** A change by the source to any of these raises the event's SEQUENCE. */
const SCHEDULING_FIELDS = new Set(["scheduledDate", "scheduledAt", "timePrecision", "status"]);

/**
 * The calendar as an RFC 5545 feed: UID the event's id, DTSTAMP its last recorded change, SEQUENCE how often the
 * source changed its schedule or status, a date-only event as a DATE (no time invented), a removed one CANCELLED.
 */
export function calendarFeed(events: readonly ServedEventRecord[], refreshSeconds: number): string {
  const publishers = [...new Set(events.map((event) => event.release.publisher))].sort();
  const calendar = ical({
    prodId: { company: "weather-economics-service", product: "economic-release-calendar", language: "EN" },
    name: "Official economic release calendar",
    // ical-generator writes X-WR-CALDESC as given (10.x), unlike DESCRIPTION: unescaped, its line breaks and commas
    // would end the property and strict parsers would read the credits as properties of their own. Escaped as TEXT.
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
  // RFC 5545 3.1: the last line ends with CRLF too, which ical-generator leaves off.
  return `${calendar.toString()}\r\n`;
}

/** A move and the status it brings are one change when detected together. */
function reschedulings(event: ServedEventRecord): number {
  return new Set(
    event.changes.filter((change) => SCHEDULING_FIELDS.has(change.field)).map((change) => change.detectedAt),
  ).size;
}

function description(event: ServedEventRecord): string {
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
