import type { CalendarSnapshot } from "../records.ts";
import { parseEcbMeetingsPage } from "./ecb-meetings-page.ts";
import { readIcsCalendar } from "./ics.ts";
import { documentText } from "./text.ts";

/**
 * ECB Governing Council and General Council meetings. The ECB publishes them only as an HTML page, which a live
 * run fetches (read by ecb-meetings-page.ts). The recorded samples are the iCalendar a third-party script derives
 * from that page (all-day `DTSTART;VALUE=DATE`, SUMMARY prefixes shortened to "ECB GovC:" / "ECB General Council:"). Dates only: decisions follow at 14:15 Frankfurt
 * time by standing rule, which is not data, so no time is given. Frankfurt's zone is Europe/Berlin.
 *
 * The UID is the script's own (a constant hash plus the meeting date), so a meeting that moves to another day
 * arrives as a new id and the old one vanishes; wording changes, which are far more frequent, keep the id.
 */
export function parseEcbMeetingsCalendar(document: string | Buffer): CalendarSnapshot {
  const text = documentText(document);
  if (!text.trimStart().startsWith("BEGIN:VCALENDAR")) return parseEcbMeetingsPage(text);
  return readIcsCalendar(text, {
    source: "central-bank-meetings-calendar",
    zone: "Europe/Berlin",
    tzidZones: {},
  });
}
