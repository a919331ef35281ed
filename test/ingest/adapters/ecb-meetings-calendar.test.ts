import { describe, expect, it } from "vitest";
import { parseEcbMeetingsCalendar } from "../../../cli/ingest/adapters/ecb-meetings-calendar.ts";
import { sample } from "./samples.ts";

const SOURCE = "central-bank-meetings-calendar";
const june2023 = parseEcbMeetingsCalendar(sample(SOURCE, "ecb-govc-meetings-2023-06-02.derived.ics"));
const may2026 = parseEcbMeetingsCalendar(sample(SOURCE, "ecb-govc-meetings-2026-05-01.derived.ics"));

describe("ECB Governing Council meetings (derived ICS)", () => {
  it("reads every row of both snapshots: decision days as events, meetings that publish nothing as skipped, each with its reason", () => {
    const reasons = (snapshot: typeof june2023) =>
      Object.fromEntries(
        [...new Set(snapshot.skipped.map((row) => row.reason))].map((reason) => [
          reason,
          snapshot.skipped.filter((row) => row.reason === reason).length,
        ]),
      );
    expect(june2023.events.length + june2023.skipped.length).toBe(32);
    expect(june2023.events).toHaveLength(13);
    expect(
      june2023.events.every(
        (event) => /monetary policy meeting/.test(event.title) && !/non-monetary/.test(event.title),
      ),
    ).toBe(true);
    expect(reasons(june2023)).toEqual({
      "a non-monetary policy meeting: no monetary policy decision is announced": 12,
      "a General Council meeting: it takes no monetary policy decision": 7,
    });
    expect(may2026.events.length + may2026.skipped.length).toBe(63);
    expect(may2026.events).toHaveLength(21);
    expect(reasons(may2026)).toEqual({
      "a non-monetary policy meeting: no monetary policy decision is announced": 15,
      "day 1 of a two-day monetary policy meeting: the decision is announced on day 2": 20,
      "a General Council meeting: it takes no monetary policy decision": 6,
      'day 1 of a two-day monetary policy meeting (the row has no day label, but the next day\'s row is its "(Day 2)"): the decision is announced on day 2': 1,
    });
    expect(
      [...june2023.skipped, ...may2026.skipped].every(
        (row) => row.kind === "NOT_A_RELEASE" && row.title !== null && row.scheduledDate !== null,
      ),
    ).toBe(true);
    // Every skipped row keeps the id it would have had as an event.
    expect(
      may2026.skipped.every((row) => /^ca6af7456b0088abad9a69f9f620f5ac-\d{4}-\d{2}-\d{2}$/.test(row.record)),
    ).toBe(true);
  });

  it("takes October 2028's unlabelled first day for what it is: day 1, not a second decision (2026-05-01 file)", () => {
    const october2028 = may2026.events.filter((event) => event.scheduledDate.startsWith("2028-10"));
    expect(october2028.map((event) => [event.scheduledDate, event.title])).toEqual([
      ["2028-10-12", "ECB GovC: monetary policy meeting in Frankfurt (Day 2), followed by press conference"],
    ]);
    expect(may2026.skipped.find((row) => row.scheduledDate === "2028-10-11")).toEqual({
      record: "ca6af7456b0088abad9a69f9f620f5ac-2028-10-11",
      kind: "NOT_A_RELEASE",
      title: "ECB GovC: monetary policy meeting in Frankfurt",
      scheduledDate: "2028-10-11",
      reason:
        'day 1 of a two-day monetary policy meeting (the row has no day label, but the next day\'s row is its "(Day 2)"): the decision is announced on day 2',
    });
    // A single-day meeting (before 2025) has no "(Day 2)" row the next day, and stays the decision day.
    expect(june2023.events.find((event) => event.scheduledDate === "2023-06-15")!.title).toBe(
      "ECB GovC: monetary policy meeting in Frankfurt",
    );
  });

  it("one decision event per monetary policy meeting in both snapshots, never two on consecutive days", () => {
    for (const snapshot of [june2023, may2026]) {
      const dates = snapshot.events.map((event) => event.scheduledDate).sort();
      for (const [index, date] of dates.entries()) {
        const next = dates[index + 1];
        if (next) expect(Date.parse(next) - Date.parse(date), `${date} and ${next}`).toBeGreaterThan(86_400_000);
      }
    }
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
    expect(may2026.events.every((event) => event.scheduledAt === null && event.timePrecision === "DATE_ONLY")).toBe(
      true,
    );
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
  <dt>22/07/2026</dt><dd>Governing Council of the ECB: monetary policy meeting in Frankfurt<br></dd>
  <dt>23/07/2026</dt><dd>Governing Council of the ECB: monetary policy meeting in Frankfurt (Day 2), followed by press conference<br></dd>
  <dt>23/07/2026</dt><dd>Press conference following the Governing Council meeting of the ECB<br></dd>
  <dt>31/02/2026</dt><dd>Governing Council of the ECB: a row with an impossible date<br></dd>
</dl></div></body></html>`;

describe("ECB Governing Council meetings (the ECB's own HTML page, constructed)", () => {
  const page = parseEcbMeetingsCalendar(CONSTRUCTED_PAGE);

  it("reads each dated row in Frankfurt's zone, ids from the date and row position; only decision days are events", () => {
    expect(page.events.map((event) => [event.sourceEventId, event.scheduledDate, event.title])).toEqual([
      [
        "2026-06-11#1",
        "2026-06-11",
        "Governing Council of the ECB: monetary policy meeting in Frankfurt (Day 2), followed by press conference",
      ],
      [
        "2026-07-23#1",
        "2026-07-23",
        "Governing Council of the ECB: monetary policy meeting in Frankfurt (Day 2), followed by press conference",
      ],
    ]);
    expect(page.events.every((event) => event.scheduledAt === null && event.sourceTimezone === "Europe/Berlin")).toBe(
      true,
    );
    expect(page.skipped.map((row) => [row.record, row.kind])).toEqual([
      ["31/02/2026", "UNREADABLE"],
      ["2026-06-10#1", "NOT_A_RELEASE"],
      ["2026-06-25#1", "NOT_A_RELEASE"],
      ["2026-06-25#2", "NOT_A_RELEASE"],
      ["2026-07-22#1", "NOT_A_RELEASE"],
      ["2026-07-23#2", "NOT_A_RELEASE"],
    ]);
    expect(page.skipped.find((row) => row.record === "2026-07-23#2")!.reason).toBe(
      "the press conference of that day's monetary policy decision, which is the decision's event",
    );
  });

  it("refuses a page without the meetings list", () => {
    expect(() => parseEcbMeetingsCalendar("<html><body><p>Maintenance</p></body></html>")).toThrow(
      /no definition list/,
    );
  });
});
