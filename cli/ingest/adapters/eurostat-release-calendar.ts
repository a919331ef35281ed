import { DateTime } from "luxon";
import type { PeriodFormat } from "../../../schemas/reference-periods.ts";
import type { CalendarSnapshot, SkippedCalendarRecord, SourceEvent } from "../records.ts";
import { calendarSnapshot } from "./calendar-snapshot.ts";
import { readPeriodText } from "./period-text.ts";
import { decodeHtmlEntities, jsonDocument } from "./text.ts";
import { UpstreamDocumentError } from "./upstream-document-error.ts";

const SOURCE = "eu-stats-release-calendar";
const LUXEMBOURG = "Europe/Luxembourg";

/**
 * Eurostat publishes next year's calendar around October, so a real date lies at most until the end of the
 * year after next, counted from retrieval. Further out is a data error (one record says 2189-05-10).
 */
const HORIZON_YEARS = 2;

/** Only periods written as exactly one month, quarter or year. */
const PERIOD_FORMATS: PeriodFormat[] = [
  { format: "MMMM yyyy", kind: "MONTH" },
  { format: "'Q'q/yyyy", kind: "QUARTER" },
  { format: "'Q'q yyyy", kind: "QUARTER" },
  { format: "yyyy'Q'q", kind: "QUARTER" },
  { format: "yyyy", kind: "YEAR" },
];

/**
 * The Eurostat release calendar as JSON records (an array of `{recordid, title, period, start, allDay, …}`).
 * `recordid` is stable across edits: a reschedule is a changed `start` on the same id, a cancellation is a
 * record that disappears. Records carry no status and no link, so every event is SCHEDULED with no URL.
 * `retrievedAt` (ISO instant the document was fetched) bounds plausible dates; it is not a clock reading.
 */
export function parseEurostatReleaseCalendar(document: string | Buffer, retrievedAt: string): CalendarSnapshot {
  const horizon = DateTime.fromISO(retrievedAt, { zone: LUXEMBOURG }).plus({ years: HORIZON_YEARS }).endOf("year");
  if (!horizon.isValid) throw new RangeError(`retrievedAt ${JSON.stringify(retrievedAt)} is not an ISO date-time`);
  const records: unknown = jsonDocument(SOURCE, document, JSON.parse);
  if (!Array.isArray(records))
    throw new UpstreamDocumentError(SOURCE, "malformed", "expected a JSON array of calendar records");
  const events: SourceEvent[] = [];
  const skipped: SkippedCalendarRecord[] = [];
  records.forEach((record: unknown, index) => {
    const result = sourceEvent(record, `entry ${index + 1}`, horizon);
    if ("reason" in result) skipped.push(result);
    else events.push(result);
  });
  return calendarSnapshot(events, skipped);
}

function sourceEvent(record: unknown, position: string, horizon: DateTime): SourceEvent | SkippedCalendarRecord {
  const unreadable = (where: string, reason: string, title: string | null = null): SkippedCalendarRecord => ({
    record: where,
    kind: "UNREADABLE",
    reason,
    title,
    scheduledDate: null,
  });
  if (typeof record !== "object" || record === null) return unreadable(position, "not an object");
  const fields = record as Record<string, unknown>;
  const id =
    typeof fields.recordid === "string" || typeof fields.recordid === "number" ? String(fields.recordid).trim() : "";
  if (!id) return unreadable(position, "no recordid");
  const title = typeof fields.title === "string" ? decodeHtmlEntities(fields.title).trim() : "";
  if (!title) return unreadable(id, "no title");
  const start = typeof fields.start === "string" ? DateTime.fromISO(fields.start, { zone: LUXEMBOURG }) : null;
  if (!start?.isValid) return unreadable(id, `start ${JSON.stringify(fields.start)} is not a date-time`, title);
  if (start > horizon) {
    return {
      record: id,
      kind: "DATE_THE_SOURCE_GETS_WRONG",
      title,
      scheduledDate: start.toISODate()!,
      reason: `scheduled ${start.toISODate()}, after ${horizon.toISODate()}: no Eurostat calendar reaches that far`,
    };
  }
  const periodText = typeof fields.period === "string" && fields.period.trim() !== "" ? fields.period.trim() : null;
  // All-day records carry local noon as a placeholder in `start`; only a record that says it is not all-day has a time.
  const timed = fields.allDay === false;
  return {
    source: SOURCE,
    sourceEventId: id,
    title,
    scheduledDate: start.toISODate()!,
    scheduledAt: timed ? start.toUTC().toISO()! : null,
    timePrecision: timed ? "EXACT_TIME" : "DATE_ONLY",
    sourceTimezone: LUXEMBOURG,
    referencePeriod: periodText === null ? null : readPeriodText(periodText, PERIOD_FORMATS),
    referencePeriodText: periodText,
    sourceStatus: "SCHEDULED",
    sourceUrl: null,
  };
}
