import { describe, expect, it } from "vitest";
import { parseEcbMeetingsCalendar } from "../../../cli/ingest/adapters/ecb-meetings-calendar.ts";
import { sample } from "./samples.ts";

const SOURCE = "central-bank-meetings-calendar";
const june2023 = parseEcbMeetingsCalendar(sample(SOURCE, "ecb-govc-meetings-2023-06-02.derived.ics"));
const may2026 = parseEcbMeetingsCalendar(sample(SOURCE, "ecb-govc-meetings-2026-05-01.derived.ics"));

describe("ECB Governing Council meetings (derived ICS)", () => {
  it("reads every meeting of both snapshots", () => {
    expect(june2023.events).toHaveLength(32);
    expect(june2023.skipped).toEqual([]);
    expect(may2026.events).toHaveLength(63);
    expect(may2026.skipped).toEqual([]);
  });

  it("reads a meeting field by field (2023-06-02 file, lines 6-12)", () => {
    expect(june2023.events[0]).toEqual({
      source: SOURCE,
      sourceEventId: "ca6af7456b0088abad9a69f9f620f5ac-2023-06-15",
      title: "ECB GovC: monetary policy meeting in Frankfurt",
      scheduledDate: "2023-06-15",
      scheduledAt: null,
      timePrecision: "DATE_ONLY",
      sourceTimezone: "Europe/Berlin",
      referencePeriod: null,
      referencePeriodText: null,
      sourceStatus: "SCHEDULED",
      sourceUrl: null,
    });
  });

  it("gives dates only, never the 14:15 decision time of the standing rule", () => {
    const decision = may2026.events.find((event) => event.scheduledDate === "2026-06-11")!;
    expect(decision.title).toBe("ECB GovC: monetary policy meeting in Frankfurt (Day 2), followed by press conference");
    expect(may2026.events.every((event) => event.scheduledAt === null && event.timePrecision === "DATE_ONLY")).toBe(true);
  });
});

/**
 * CONSTRUCTED: no raw recording of the ECB's meetings page exists (data/samples/SOURCES.md). This follows the markup
 * the research notes document from independent parsers: `div.definition-list -zebra > dl > dt/dd`, whitespace inside
 * `dt`, `<br>` inside `dd`, and the page's real row wording.
 */
const CONSTRUCTED_PAGE = `<html><body>
<h1>Schedules for the meetings of the Governing Council and General Council of the ECB and related press conferences</h1>
<div class="definition-list -zebra"><dl>
  <dt>
    10/06/2026
  </dt><dd>Governing Council of the ECB: monetary policy meeting in Frankfurt (Day 1)<br></dd>
  <dt>11/06/2026</dt><dd>Governing Council of the ECB: monetary policy meeting in Frankfurt (Day 2), followed by press conference<br></dd>
  <dt>25/06/2026</dt><dd>General Council meeting of the ECB (virtual)<br></dd>
  <dt>25/06/2026</dt><dd>Governing Council of the ECB: non-monetary policy meeting (virtual)<br></dd>
  <dt>31/02/2026</dt><dd>Governing Council of the ECB: a row with an impossible date<br></dd>
</dl></div></body></html>`;

describe("ECB Governing Council meetings (the ECB's own HTML page, constructed)", () => {
  const page = parseEcbMeetingsCalendar(CONSTRUCTED_PAGE);

  it("reads each dated row as a date-only event in Frankfurt's zone, ids from the date and row position", () => {
    expect(page.events.map((event) => [event.sourceEventId, event.scheduledDate, event.title])).toEqual([
      ["2026-06-10#1", "2026-06-10", "Governing Council of the ECB: monetary policy meeting in Frankfurt (Day 1)"],
      ["2026-06-11#1", "2026-06-11", "Governing Council of the ECB: monetary policy meeting in Frankfurt (Day 2), followed by press conference"],
      ["2026-06-25#1", "2026-06-25", "General Council meeting of the ECB (virtual)"],
      ["2026-06-25#2", "2026-06-25", "Governing Council of the ECB: non-monetary policy meeting (virtual)"],
    ]);
    expect(page.events.every((event) => event.scheduledAt === null && event.sourceTimezone === "Europe/Berlin")).toBe(true);
    expect(page.skipped).toEqual([expect.objectContaining({ record: "31/02/2026" })]);
  });

  it("refuses a page without the meetings list", () => {
    expect(() => parseEcbMeetingsCalendar("<html><body><p>Maintenance</p></body></html>")).toThrow(/no definition list/);
  });
});
