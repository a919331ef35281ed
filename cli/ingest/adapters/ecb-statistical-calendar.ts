import { createHash } from "node:crypto";
import { DateTime } from "luxon";
import type { PeriodFormat } from "../../../schemas/reference-periods.ts";
import type { CalendarSnapshot, SkippedCalendarRecord, SourceEvent } from "../records.ts";
import { calendarSnapshot } from "./calendar-snapshot.ts";
import { readPeriodText } from "./period-text.ts";
import { documentText, htmlFragmentText, wholeHtmlPage } from "./text.ts";
import { UpstreamDocumentError } from "./upstream-document-error.ts";

const SOURCE = "central-bank-statistics-calendar";

/**
 * The page labels every time "CET", in summer too. The ECB's "CET" is Frankfurt wall-clock time (its 14:15 "CET"
 * decisions are stamped +02:00 in summer), so times are read in Europe/Berlin, not as a fixed +01:00.
 */
const FRANKFURT = "Europe/Berlin";

const DATE_TIME_FORMAT = "dd/MM/yyyy HH:mm 'CET'";
const DATE_FORMAT = "dd/MM/yyyy";

/** "Nov-2015", "Q3 2015", "2015"; "Apr-2016 / Q1 2016" names two periods and stays unread. */
const PERIOD_FORMATS: PeriodFormat[] = [
  { format: "MMM-yyyy", kind: "MONTH" },
  { format: "'Q'q yyyy", kind: "QUARTER" },
  { format: "yyyy", kind: "YEAR" },
];

const HEADER_TERM = "Publication date";

/**
 * The ECB statistical calendar page: `dl.ecb-basicList` whose `dt` is "DD/MM/YYYY HH:MM CET" and whose `dd` holds
 * `div.doc-title` ("… (Dataset: SEC)") and `div.doc-subtitle` ("Reference period: Nov-2015"). The page has no ids,
 * so an event's id is derived from its title and reference period, which stay put when the date moves.
 */
export function parseEcbStatisticalCalendar(document: string | Buffer): CalendarSnapshot {
  const list = /<dl class="ecb-basicList">([\s\S]*?)<\/dl>/.exec(
    wholeHtmlPage(SOURCE, documentText(SOURCE, document)),
  )?.[1];
  if (list === undefined) throw new UpstreamDocumentError(SOURCE, "malformed", "no dl.ecb-basicList on the page");
  const events: SourceEvent[] = [];
  const skipped: SkippedCalendarRecord[] = [];
  let entry = 0;
  for (const [, term, definition] of list.matchAll(/<dt>([\s\S]*?)<\/dt>\s*<dd>([\s\S]*?)<\/dd>/g)) {
    entry++;
    const when = htmlFragmentText(term!);
    if (when === HEADER_TERM) continue;
    const result = sourceEvent(when, definition!, `entry ${entry}`);
    if ("reason" in result) skipped.push(result);
    else events.push(result);
  }
  return calendarSnapshot(events, skipped);
}

function sourceEvent(when: string, definition: string, position: string): SourceEvent | SkippedCalendarRecord {
  const title = htmlFragmentText(/<div class="doc-title">([\s\S]*?)<\/div>/.exec(definition)?.[1] ?? "");
  if (!title) return { record: position, kind: "UNREADABLE", reason: "no doc-title", title: null, scheduledDate: null };
  const schedule = readSchedule(when);
  if (!schedule)
    return {
      record: position,
      kind: "UNREADABLE",
      reason: `publication date ${JSON.stringify(when)} is not DD/MM/YYYY [HH:MM CET]`,
      title,
      scheduledDate: null,
    };
  const subtitle = htmlFragmentText(/<div class="doc-subtitle">([\s\S]*?)<\/div>/.exec(definition)?.[1] ?? "");
  const periodText = subtitle.replace(/^Reference period:\s*/i, "").trim() || null;
  return {
    source: SOURCE,
    // Without a period, only the date tells two releases of the same title apart.
    sourceEventId: createHash("sha256")
      .update(`${title}\n${periodText ?? schedule.date}`)
      .digest("hex")
      .slice(0, 24),
    title,
    scheduledDate: schedule.date,
    scheduledAt: schedule.at,
    timePrecision: schedule.at === null ? "DATE_ONLY" : "EXACT_TIME",
    sourceTimezone: FRANKFURT,
    referencePeriod: periodText === null ? null : readPeriodText(periodText, PERIOD_FORMATS),
    referencePeriodText: periodText,
    // The page lists forthcoming releases only and says nothing about publication.
    sourceStatus: "SCHEDULED",
    sourceUrl: null,
  };
}

function readSchedule(when: string): { date: string; at: string | null } | null {
  const instant = DateTime.fromFormat(when, DATE_TIME_FORMAT, { zone: FRANKFURT });
  if (instant.isValid) return { date: instant.toISODate()!, at: instant.toUTC().toISO()! };
  const day = DateTime.fromFormat(when, DATE_FORMAT, { zone: FRANKFURT });
  return day.isValid ? { date: day.toISODate()!, at: null } : null;
}
