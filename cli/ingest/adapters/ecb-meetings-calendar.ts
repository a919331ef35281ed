import { DateTime } from "luxon";
import type { CalendarSnapshot, SkippedCalendarRecord, SourceEvent } from "../records.ts";
import { DOCUMENT_FAILURES } from "./document-failures.ts";
import { parseEcbMeetingsPage } from "./ecb-meetings-page.ts";
import { readIcsCalendar } from "./ics.ts";
import { documentText } from "./text.ts";
import { UpstreamDocumentError } from "./upstream-document-error.ts";

const SOURCE = "central-bank-meetings-calendar";

/**
 * ECB Governing Council and General Council meetings. The ECB publishes them only as an HTML page, which a live
 * run fetches (read by ecb-meetings-page.ts). The recorded samples are the iCalendar a third-party script derives
 * from that page (all-day `DTSTART;VALUE=DATE`, SUMMARY prefixes shortened to "ECB GovC:" / "ECB General Council:"). Dates only: decisions follow at 14:15 Frankfurt
 * time by standing rule, which is not data, so no time is given. Frankfurt's zone is Europe/Berlin.
 *
 * The UID is the script's own (a constant hash plus the meeting date), so a meeting that moves to another day
 * arrives as a new id and the old one vanishes; wording changes, which are far more frequent, keep the id.
 *
 * Only a monetary policy meeting's decision day is a release; the other rows are meetings that publish nothing
 * (see `meetingsThatPublishNothing`).
 */
export function parseEcbMeetingsCalendar(document: string | Buffer): CalendarSnapshot {
  const text = documentText(SOURCE, document);
  const start = text.trimStart();
  // Told apart by their first bytes: a document that is neither is named so, not read as a page cut short.
  if (start.startsWith("BEGIN:VCALENDAR"))
    return meetingsThatPublishNothing(readIcsCalendar(text, { source: SOURCE, zone: "Europe/Berlin", tzidZones: {} }));
  if (start.startsWith("<")) return meetingsThatPublishNothing(parseEcbMeetingsPage(text));
  throw new UpstreamDocumentError(
    SOURCE,
    "malformed",
    DOCUMENT_FAILURES.neitherFormat("the meetings page (HTML) nor an iCalendar calendar (no BEGIN:VCALENDAR line)"),
  );
}

/** The page's wording and the derived iCalendar's ("Governing Council of the ECB: …" / "ECB GovC: …"). */
// No word boundary after "meeting": the page once wrote "meetinghosted by the Central Bank of Ireland".
const MONETARY_POLICY_MEETING = /(?<![\w-])monetary policy meeting/i;
const NON_MONETARY_POLICY_MEETING = /\bnon-monetary policy meeting/i;
const GENERAL_COUNCIL = /\bGeneral Council\b/i;
const PRESS_CONFERENCE_ROW = /^\s*Press conference\b/i;
const DAY_LABEL = /\(Day\s*(\d+)\)/i;

/**
 * Moves the rows that are not releases from the events to the skipped records, each with its reason:
 * non-monetary policy meetings and General Council meetings (no decision is announced), the first day of a two-day
 * monetary policy meeting (the decision comes on day 2), and a press conference row on a decision day (it belongs to
 * that decision's event). A monetary policy meeting row without a day label is day 1 when the next day's row is its
 * "(Day 2)": the page once wrote October 2028's first day so, and read alone it looked like a second decision.
 */
function meetingsThatPublishNothing(rows: CalendarSnapshot): CalendarSnapshot {
  const decisionDays = new Set<string>();
  const secondDays = new Set<string>();
  for (const row of rows.events) {
    if (!isMonetaryPolicyMeeting(row.title)) continue;
    if (DAY_LABEL.exec(row.title)?.[1] === "2") secondDays.add(row.scheduledDate);
  }
  const whyNotARelease = (row: SourceEvent): string | null => {
    if (NON_MONETARY_POLICY_MEETING.test(row.title))
      return "a non-monetary policy meeting: no monetary policy decision is announced";
    if (GENERAL_COUNCIL.test(row.title)) return "a General Council meeting: it takes no monetary policy decision";
    if (isMonetaryPolicyMeeting(row.title)) {
      const day = DAY_LABEL.exec(row.title)?.[1];
      if (day !== undefined && day !== "2")
        return `day ${day} of a two-day monetary policy meeting: the decision is announced on day 2`;
      if (day === undefined && secondDays.has(nextDay(row.scheduledDate))) {
        return 'day 1 of a two-day monetary policy meeting (the row has no day label, but the next day\'s row is its "(Day 2)"): the decision is announced on day 2';
      }
      decisionDays.add(row.scheduledDate);
    }
    return null;
  };
  const events: SourceEvent[] = [];
  const skipped: SkippedCalendarRecord[] = [...rows.skipped];
  const notARelease = (row: SourceEvent, reason: string) =>
    skipped.push({
      record: row.sourceEventId,
      kind: "NOT_A_RELEASE",
      reason,
      title: row.title,
      scheduledDate: row.scheduledDate,
    });
  const pressConferences: SourceEvent[] = [];
  for (const row of rows.events) {
    if (PRESS_CONFERENCE_ROW.test(row.title)) {
      pressConferences.push(row);
      continue;
    }
    const reason = whyNotARelease(row);
    if (reason === null) events.push(row);
    else notARelease(row, reason);
  }
  for (const row of pressConferences) {
    if (decisionDays.has(row.scheduledDate))
      notARelease(row, "the press conference of that day's monetary policy decision, which is the decision's event");
    else events.push(row);
  }
  return { events, skipped };
}

function isMonetaryPolicyMeeting(title: string): boolean {
  return MONETARY_POLICY_MEETING.test(title) && !NON_MONETARY_POLICY_MEETING.test(title);
}

function nextDay(date: string): string {
  return DateTime.fromISO(date, { zone: "utc" }).plus({ days: 1 }).toISODate()!;
}
