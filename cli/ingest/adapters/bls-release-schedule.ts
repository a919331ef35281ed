import type { CalendarSnapshot } from "../records.ts";
import { readIcsCalendar } from "./ics.ts";
import { documentText } from "./text.ts";

const NEW_YORK = "America/New_York";

/**
 * The BLS news release schedule (`bls.ics`). Times are exact, in BLS's private zone name `US-Eastern`,
 * whose embedded VTIMEZONE carries the post-2007 US Eastern rules: the same as America/New_York for every
 * date the feed lists. The UID is BLS's id; the feed has no status, no URL and no reference period
 * (SUMMARY is the bare release name), and a cancelled release simply disappears.
 */
export function parseBlsReleaseSchedule(document: string | Buffer): CalendarSnapshot {
  return readIcsCalendar(documentText("labour-stats-release-schedule", document), {
    source: "labour-stats-release-schedule",
    zone: NEW_YORK,
    tzidZones: { "US-Eastern": NEW_YORK },
  });
}
