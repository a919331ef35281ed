import { DateTime, IANAZone } from "luxon";
import type { CalendarSource } from "../../../schemas/vocabularies.ts";
import type { CalendarSnapshot, SkippedCalendarRecord, SourceEvent } from "../records.ts";
import { calendarSnapshot } from "./calendar-snapshot.ts";
import { DOCUMENT_FAILURES } from "./document-failures.ts";
import { createRememberedReads } from "./remembered-reads.ts";
import { UpstreamDocumentError } from "./upstream-document-error.ts";

interface IcsProperty {
  name: string;
  params: Map<string, string>;
  value: string;
}

interface IcsEvent {
  /** Line of BEGIN:VEVENT, for naming records that have no UID. */
  line: number;
  properties: IcsProperty[];
}

interface IcsCalendarOptions {
  source: CalendarSource;
  /** The zone the publisher announces in: scheduled dates are given in it, and floating or date-only values read in it. */
  zone: string;
  /** Non-IANA TZID names the publisher uses, mapped to the IANA zone with the same rules. */
  tzidZones: Record<string, string>;
}

/**
 * The VEVENTs of an iCalendar document as events: UID as the id, SUMMARY as the title, DTSTART as the schedule
 * (a date-time with TZID, UTC or floating gives an exact time; VALUE=DATE gives a date only).
 * Events missing one of the three are skipped with a reason. iCalendar carries no reference period.
 */
export function readIcsCalendar(text: string, options: IcsCalendarOptions): CalendarSnapshot {
  if (!/^BEGIN:VCALENDAR\r?$/m.test(text))
    throw new UpstreamDocumentError(options.source, "malformed", DOCUMENT_FAILURES.notICalendar);
  // A cut document must fail as a whole: read as it is, its missing events would look cancelled by the publisher.
  const count = (pattern: RegExp) => text.match(pattern)?.length ?? 0;
  if (!/^END:VCALENDAR\r?$/m.test(text) || count(/^BEGIN:VEVENT\r?$/gm) !== count(/^END:VEVENT\r?$/gm)) {
    throw new UpstreamDocumentError(options.source, "malformed", DOCUMENT_FAILURES.truncatedICalendar);
  }
  const events: SourceEvent[] = [];
  const skipped: SkippedCalendarRecord[] = [];
  for (const event of icsEvents(text)) {
    const result = sourceEvent(event, options);
    if ("reason" in result) skipped.push(result);
    else events.push(result);
  }
  return calendarSnapshot(events, skipped);
}

function sourceEvent(event: IcsEvent, options: IcsCalendarOptions): SourceEvent | SkippedCalendarRecord {
  const property = (name: string) => event.properties.find((candidate) => candidate.name === name);
  const uid = property("UID")?.value.trim();
  const title = unescapeText(property("SUMMARY")?.value ?? "").trim();
  const start = property("DTSTART");
  const unreadable = (reason: string): SkippedCalendarRecord => ({
    record: uid || `line ${event.line}`,
    kind: "UNREADABLE",
    reason,
    title: title || null,
    scheduledDate: null,
  });
  if (!uid) return unreadable("no UID");
  if (!title) return unreadable("no SUMMARY");
  if (!start) return unreadable("no DTSTART");
  const schedule = readStart(start, options);
  if (typeof schedule === "string") return unreadable(schedule);
  return {
    source: options.source,
    sourceEventId: uid,
    title,
    scheduledDate: schedule.date,
    scheduledAt: schedule.at,
    timePrecision: schedule.at === null ? "DATE_ONLY" : "EXACT_TIME",
    sourceTimezone: options.zone,
    referencePeriod: null,
    referencePeriodText: null,
    // iCalendar STATUS only knows TENTATIVE/CONFIRMED/CANCELLED, and neither feed sets it.
    sourceStatus: "SCHEDULED",
    sourceUrl: null,
  };
}

/** A DTSTART read: the local date in the calendar's zone, and the UTC instant when the value has a time. */
interface Start {
  readonly date: string;
  readonly at: string | null;
}

/** Distinct DTSTART values of a large run: each calendar snapshot repeats most of the one before it. */
const MAX_REMEMBERED_STARTS = 20_000;
const rememberedStarts = createRememberedReads<Start | string>(MAX_REMEMBERED_STARTS);

/** The DTSTART as the calendar's date and instant, otherwise why not. Each value is read once per zone. */
function readStart(start: IcsProperty, options: IcsCalendarOptions): Start | string {
  const value = start.value.trim();
  if (start.params.get("VALUE") === "DATE")
    return rememberedStarts(`DATE\u0000${options.zone}\u0000${value}`, () => readDate(value, options.zone));
  const tzid = start.params.get("TZID");
  const utc = value.endsWith("Z");
  const zone = utc
    ? "utc"
    : tzid === undefined
      ? options.zone
      : (options.tzidZones[tzid] ?? (IANAZone.isValidZone(tzid) ? tzid : null));
  if (zone === null) return `DTSTART time zone ${tzid} is not known`;
  return rememberedStarts(`${zone}\u0000${options.zone}\u0000${value}`, () =>
    readDateTime(value, utc, zone, options.zone),
  );
}

function readDate(value: string, calendarZone: string): Start | string {
  const day = DateTime.fromFormat(value, "yyyyMMdd", { zone: calendarZone });
  return day.isValid ? { date: day.toISODate()!, at: null } : `DTSTART ${value} is not a date`;
}

function readDateTime(value: string, utc: boolean, zone: string, calendarZone: string): Start | string {
  const instant = DateTime.fromFormat(value, utc ? "yyyyMMdd'T'HHmmss'Z'" : "yyyyMMdd'T'HHmmss", { zone });
  if (!instant.isValid) return `DTSTART ${value} is not a date-time`;
  return { date: instant.setZone(calendarZone).toISODate()!, at: instant.toUTC().toISO()! };
}

/**
 * RFC 5545 content lines: a line starting with a space or tab continues the previous one (unfolding).
 * Blank lines, which the BLS feed has although the RFC does not allow them, are ignored. Properties of
 * components nested in a VEVENT (VALARM) are not the event's.
 */
function icsEvents(text: string): IcsEvent[] {
  const lines: { line: number; text: string }[] = [];
  text.split(/\r\n|\n|\r/).forEach((raw, index) => {
    const previous = lines.at(-1);
    if ((raw.startsWith(" ") || raw.startsWith("\t")) && previous) previous.text += raw.slice(1);
    else if (raw.trim() !== "") lines.push({ line: index + 1, text: raw });
  });
  const events: IcsEvent[] = [];
  let current: IcsEvent | null = null;
  let nested = 0;
  for (const { line, text: content } of lines) {
    const property = contentLine(content);
    if (!property) continue;
    const component = property.value.trim().toUpperCase();
    if (property.name === "BEGIN") {
      if (current) nested++;
      else if (component === "VEVENT") current = { line, properties: [] };
    } else if (property.name === "END" && current) {
      if (nested > 0) nested--;
      else if (component === "VEVENT") {
        events.push(current);
        current = null;
      }
    } else if (current && nested === 0) {
      current.properties.push(property);
    }
  }
  return events;
}

/** `NAME;PARAM=value;PARAM="quoted":value`; null for a line that is not a content line. */
function contentLine(text: string): IcsProperty | null {
  const nameEnd = text.search(/[;:]/);
  if (nameEnd <= 0) return null;
  const params = new Map<string, string>();
  let position = nameEnd;
  while (text[position] === ";") {
    const param = /^;([A-Za-z0-9-]+)=("[^"]*"|[^";:]*)/.exec(text.slice(position));
    if (!param) return null;
    params.set(param[1]!.toUpperCase(), param[2]!.replace(/^"(.*)"$/, "$1"));
    position += param[0].length;
  }
  if (text[position] !== ":") return null;
  return { name: text.slice(0, nameEnd).toUpperCase(), params, value: text.slice(position + 1) };
}

/** TEXT values escape backslash, semicolon and comma, and write line breaks as `\n`. */
function unescapeText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_, escaped: string) => (escaped === "n" || escaped === "N" ? "\n" : escaped));
}
