import { releaseDate, type SyntheticPlan, type SyntheticRelease } from "./plan.ts";

/** One document to write: the source folder it belongs in, its file name (name order is replay order) and body. */
export interface SyntheticDocument {
  source: string;
  name: string;
  body: string;
}

const pad = (value: number, width = 2) => String(value).padStart(width, "0");
const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const MONTH_ABBREVIATIONS = MONTH_NAMES.map((name) => name.slice(0, 3));

interface ScheduledRelease {
  release: SyntheticRelease;
  referenceMonth: string;
  year: number;
  month: number;
  day: number;
}

/** Every release event of one publisher, grouped by the year it is scheduled in (one calendar snapshot per year). */
function scheduleByYear(
  plan: SyntheticPlan,
  publisher: SyntheticRelease["publisher"],
): Map<number, ScheduledRelease[]> {
  const byYear = new Map<number, ScheduledRelease[]>();
  for (const referenceMonth of plan.months) {
    for (const release of plan.releases) {
      if (release.publisher !== publisher) continue;
      const date = releaseDate(referenceMonth, release.day);
      const year = byYear.get(date.year) ?? [];
      year.push({ release, referenceMonth, ...date });
      byYear.set(date.year, year);
    }
  }
  return byYear;
}

/**
 * BLS news release schedule (`bls.ics`), one snapshot per year: the feed's VCALENDAR header with its private
 * `US-Eastern` zone, VEVENTs with a UID, a local 08:30 or 10:00 DTSTART and the release name as SUMMARY.
 */
export function blsScheduleDocuments(plan: SyntheticPlan): SyntheticDocument[] {
  return [...scheduleByYear(plan, "BLS")].map(([year, scheduled]) => {
    const events = scheduled.map(({ release, referenceMonth, month, day }) =>
      [
        "BEGIN:VEVENT",
        "SEQUENCE:1",
        "CLASS:PUBLIC",
        `UID:synthetic-${release.slug}-${referenceMonth}`,
        `DTSTART;TZID=US-Eastern:${year}${pad(month)}${pad(day)}T${release.day % 2 === 0 ? "083000" : "100000"}`,
        "DURATION:PT0M",
        `SUMMARY:${release.title}`,
        "LOCATION:Synthetic\\, not a BLS document",
        "TRANSP:TRANSPARENT",
        "CATEGORIES:SYNTHETIC",
        "END:VEVENT",
      ].join("\r\n"),
    );
    const body = [
      "BEGIN:VCALENDAR",
      "PRODID:-//bench/synthetic-archive//SYNTHETIC BLS-format schedule, not a BLS document//EN",
      "VERSION:2.0",
      "CALSCALE:GREGORIAN",
      "METHOD:PUBLISH",
      "X-WR-CALNAME:SYNTHETIC release schedule (generated)",
      "X-WR-TIMEZONE:US-Eastern",
      "BEGIN:VTIMEZONE",
      "TZID:US-Eastern",
      "BEGIN:DAYLIGHT",
      "TZOFFSETFROM:-0500",
      "TZOFFSETTO:-0400",
      "DTSTART:20070311T020000",
      "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU",
      "TZNAME:EDT",
      "END:DAYLIGHT",
      "BEGIN:STANDARD",
      "TZOFFSETFROM:-0400",
      "TZOFFSETTO:-0500",
      "DTSTART:20071104T020000",
      "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU",
      "TZNAME:EST",
      "END:STANDARD",
      "END:VTIMEZONE",
      ...events,
      "END:VCALENDAR",
      "",
    ].join("\r\n");
    return { source: "labour-stats-release-schedule", name: `synthetic-bls-schedule-${year}.ics`, body };
  });
}

/**
 * Eurostat release calendar records (`recordid`, `title`, `period`, `start`, `allDay`, …), one snapshot per year,
 * dated January 1st in its name: the adapter bounds plausible dates by the retrieval date it reads from the name.
 */
export function eurostatCalendarDocuments(plan: SyntheticPlan): SyntheticDocument[] {
  return [...scheduleByYear(plan, "EUROSTAT")].map(([year, scheduled]) => {
    const records = scheduled.map(({ release, referenceMonth, month, day }, index) => {
      const [referenceYear, referenceMonthNumber] = referenceMonth.split("-").map(Number) as [number, number];
      return JSON.stringify({
        recordid: `${year}${pad(index, 6)}`,
        title: release.title,
        theme: "Synthetic (generated, not a Eurostat record)",
        period: `${MONTH_NAMES[referenceMonthNumber - 1]} ${referenceYear}`,
        types: [{ order: 1, label: "Euro indicators" }],
        preliminary: false,
        start: `${year}-${pad(month)}-${pad(day)}T10:00:00Z`,
        end: `${year}-${pad(month)}-${pad(day)}T10:00:00Z`,
        unit: "SYN",
        euroindAuthor: "synthetic",
        allDay: true,
      });
    });
    return {
      source: "eu-stats-release-calendar",
      name: `synthetic-eurostat-release-calendar-${year}-01-01.json`,
      body: `[\n${records.join(",\n")}\n]\n`,
    };
  });
}

/** Governing Council meetings in the derived iCalendar the samples hold: eight all-day meetings a year. */
export function ecbMeetingsDocument(plan: SyntheticPlan): SyntheticDocument {
  const events: string[] = [];
  for (let year = plan.firstYear; year < plan.firstYear + plan.years; year++) {
    for (let meeting = 0; meeting < 8; meeting++) {
      const date = `${year}${pad(1 + Math.floor(meeting * 1.5))}${pad(10 + (meeting % 3))}`;
      events.push(
        [
          "BEGIN:VEVENT",
          `DTSTART;VALUE=DATE:${date}`,
          "SUMMARY:Synthetic ECB GovC: monetary policy meeting",
          `UID:synthetic-ecb-govc-${date}`,
          "SEQUENCE:0",
          "END:VEVENT",
        ].join("\r\n"),
      );
    }
  }
  const body = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//bench/synthetic-archive//SYNTHETIC meetings calendar, not an ECB document//EN",
    ...events,
    "END:VCALENDAR",
    "",
  ].join("\r\n");
  return { source: "central-bank-meetings-calendar", name: "synthetic-ecb-govc-meetings.derived.ics", body };
}

/** The ECB statistical calendar page's `dl.ecb-basicList`: the ECB release every month with its reference period. */
export function ecbStatisticalCalendarDocument(plan: SyntheticPlan): SyntheticDocument {
  const release = plan.releases.find((candidate) => candidate.publisher === "ECB")!;
  const entries = plan.months.map((referenceMonth) => {
    const [year, month] = referenceMonth.split("-").map(Number) as [number, number];
    const date = releaseDate(referenceMonth, release.day);
    return (
      `<dt>\n${pad(date.day)}/${pad(date.month)}/${date.year} 10:00 CET\n</dt>\n<dd>\n<div class="doc-title">${release.title}</div>\n` +
      `<div class="doc-subtitle"><strong>Reference period: </strong>${MONTH_ABBREVIATIONS[month - 1]}-${year}</div>\n</dd>`
    );
  });
  const body =
    `<!DOCTYPE html>\n<html><head><title>SYNTHETIC statistical calendar (generated by bench/synthetic-archive, not an ECB page)</title></head><body>\n` +
    `<dl class="ecb-basicList">\n<dt>\nPublication date\n</dt>\n<dd>\n<strong>Publication</strong>\n</dd>\n${entries.join("\n")}\n</dl>\n</body></html>\n`;
  return { source: "central-bank-statistics-calendar", name: "synthetic-ecb-statscal.html", body };
}
