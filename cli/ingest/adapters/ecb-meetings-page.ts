import { DateTime } from "luxon";
import type { CalendarSnapshot, SkippedCalendarRecord, SourceEvent } from "../records.ts";
import { calendarSnapshot } from "./calendar-snapshot.ts";
import { htmlFragmentText, wholeHtmlPage } from "./text.ts";
import { UpstreamDocumentError } from "./upstream-document-error.ts";

const SOURCE = "central-bank-meetings-calendar";
const FRANKFURT = "Europe/Berlin";

/**
 * The ECB's own meetings page (`…/press/calendars/mgcgc/html/index.en.html`): a `div.definition-list` whose `dl`
 * pairs `<dt>DD/MM/YYYY</dt>` with `<dd>` meeting text. Dates only. The page has no ids, so an event's id is its date
 * and its position among that date's rows: wording changes (frequent) keep it; a meeting moved to another day
 * arrives as a new id and the old one vanishes, exactly as with the derived iCalendar.
 */
export function parseEcbMeetingsPage(html: string): CalendarSnapshot {
  const list = /<div class="definition-list[^"]*">\s*<dl>([\s\S]*?)<\/dl>/.exec(wholeHtmlPage(SOURCE, html))?.[1];
  if (list === undefined)
    throw new UpstreamDocumentError(SOURCE, "malformed", "no definition list of meetings on the page");
  const events: SourceEvent[] = [];
  const skipped: SkippedCalendarRecord[] = [];
  const rowsOnDate = new Map<string, number>();
  for (const [, term, definition] of list.matchAll(/<dt>([\s\S]*?)<\/dt>\s*<dd>([\s\S]*?)<\/dd>/g)) {
    const dateText = htmlFragmentText(term!);
    const title = htmlFragmentText(definition!);
    const date = DateTime.fromFormat(dateText, "dd/MM/yyyy", { zone: FRANKFURT });
    if (!date.isValid || title === "") {
      skipped.push({
        record: dateText || "row without a date",
        kind: "UNREADABLE",
        reason: "unreadable date or empty meeting text",
        title: title || null,
        scheduledDate: null,
      });
      continue;
    }
    const scheduledDate = date.toISODate()!;
    const position = (rowsOnDate.get(scheduledDate) ?? 0) + 1;
    rowsOnDate.set(scheduledDate, position);
    events.push({
      source: SOURCE,
      sourceEventId: `${scheduledDate}#${position}`,
      title,
      scheduledDate,
      scheduledAt: null,
      timePrecision: "DATE_ONLY",
      sourceTimezone: FRANKFURT,
      referencePeriod: null,
      referencePeriodText: null,
      sourceStatus: "SCHEDULED",
      sourceUrl: null,
    });
  }
  if (events.length === 0 && skipped.length === 0)
    throw new UpstreamDocumentError(SOURCE, "malformed", "the meetings list has no rows");
  return calendarSnapshot(events, skipped);
}
