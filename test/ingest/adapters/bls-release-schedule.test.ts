import { describe, expect, it } from "vitest";
import { parseBlsReleaseSchedule } from "../../../cli/ingest/adapters/bls-release-schedule.ts";
import { UpstreamDocumentError } from "../../../cli/ingest/adapters/upstream-document-error.ts";
import { sample } from "./samples.ts";

const SOURCE = "labour-stats-release-schedule";
const after2025Lapse = parseBlsReleaseSchedule(sample(SOURCE, "bls-schedule-2025-2026.ics"));
const before = parseBlsReleaseSchedule(sample(SOURCE, "bls-schedule-2023-2024.ics"));
const on = (date: string) => after2025Lapse.events.filter((event) => event.scheduledDate === date);

describe("BLS release schedule (ICS)", () => {
  it("reads every VEVENT of both snapshots and skips none", () => {
    expect(before.events).toHaveLength(321);
    expect(before.skipped).toEqual([]);
    expect(after2025Lapse.events).toHaveLength(246);
    expect(after2025Lapse.skipped).toEqual([]);
  });

  it("reads an event field by field (2025-2026 file, lines 1448-1458)", () => {
    expect(on("2025-10-24")).toEqual([
      {
        source: SOURCE,
        sourceEventId: "01ce31a9-b86b-40b5-adc4-bcbb019dbe6d",
        title: "Consumer Price Index",
        scheduledDate: "2025-10-24",
        scheduledAt: "2025-10-24T12:30:00.000Z",
        timePrecision: "EXACT_TIME",
        sourceTimezone: "America/New_York",
        referencePeriod: null,
        referencePeriodText: null,
        sourceStatus: "SCHEDULED",
        sourceUrl: null,
      },
    ]);
  });

  it("shows the post-shutdown schedule: CPI moved to 2025-10-24, nothing left on 2025-10-03 or 2025-10-15", () => {
    expect(on("2025-10-03")).toEqual([]);
    expect(on("2025-10-15")).toEqual([]);
    const october = after2025Lapse.events.filter((event) => event.scheduledDate.startsWith("2025-10"));
    expect(october.map((event) => [event.scheduledDate, event.title])).toEqual([
      ["2025-10-01", "Metropolitan Area Employment and Unemployment (Monthly)"],
      ["2025-10-24", "Consumer Price Index"],
    ]);
    expect(on("2025-11-20").map((event) => event.title)).toContain("Employment Situation");
    expect(on("2025-12-18").map((event) => event.title)).toContain("Consumer Price Index");
  });

  it("converts 08:30 Eastern to UTC on both sides of DST", () => {
    // Line 341: 20250307T083000, before DST starts on 2025-03-09 (EST, UTC-5).
    expect(on("2025-03-07").find((event) => event.title === "Employment Situation")?.scheduledAt).toBe(
      "2025-03-07T13:30:00.000Z",
    );
    // Line 363: 20250312T083000, after DST starts (EDT, UTC-4).
    expect(on("2025-03-12").find((event) => event.title === "Consumer Price Index")?.scheduledAt).toBe(
      "2025-03-12T12:30:00.000Z",
    );
    // Line 1463: 20251120T083000, after DST ends on 2025-11-02 (EST).
    expect(on("2025-11-20").find((event) => event.title === "Employment Situation")?.scheduledAt).toBe(
      "2025-11-20T13:30:00.000Z",
    );
    // 10:00 releases too: 2025-01-03 (first event, EST) is 15:00Z.
    expect(after2025Lapse.events[0]!.scheduledAt).toBe("2025-01-03T15:00:00.000Z");
  });

  it("trims trailing spaces and reads lines longer than 75 octets whole", () => {
    // 2025-2026 line 1399: "SUMMARY:Unpaid Eldercare in the United States " (trailing space).
    expect(on("2025-09-25").map((event) => event.title)).toContain("Unpaid Eldercare in the United States");
    // 2023-2024 line 475: an 84-character SUMMARY line, not folded.
    expect(before.events.find((event) => event.sourceEventId === "765d9629-1b77-46b8-bbcb-41cab0d796df")?.title).toBe(
      "Characteristics of Unemployment Insurance Applicants and Benefit Recipients",
    );
  });

  it("unfolds folded lines, unescapes text, ignores blank lines and nested components, accepts CRLF", () => {
    const folded = [
      "BEGIN:VCALENDAR",
      "",
      "BEGIN:VEVENT",
      "UID:folded-1",
      "DTSTART;TZID=US-Eastern:20261110T083000",
      "SUMMARY:Productivity and Costs\\, Revised\\; Second Quarter\\nDetail",
      " s continued",
      "BEGIN:VALARM",
      "DTSTART:20000101T000000Z",
      "END:VALARM",
      "END:VEVENT",
      "",
      "END:VCALENDAR",
    ].join("\r\n");
    const [event] = parseBlsReleaseSchedule(folded).events;
    expect(event!.title).toBe("Productivity and Costs, Revised; Second Quarter\nDetails continued");
    expect(event!.scheduledAt).toBe("2026-11-10T13:30:00.000Z");
  });

  it("reads UTC and floating times too, giving the date in New York", () => {
    const document = [
      "BEGIN:VCALENDAR",
      "BEGIN:VEVENT",
      "UID:utc",
      "DTSTART:20260108T030000Z",
      "SUMMARY:Late",
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:floating",
      "DTSTART:20260710T083000",
      "SUMMARY:Summer",
      "END:VEVENT",
      "END:VCALENDAR",
    ].join("\n");
    expect(parseBlsReleaseSchedule(document).events.map((event) => [event.scheduledDate, event.scheduledAt])).toEqual([
      ["2026-01-07", "2026-01-08T03:00:00.000Z"],
      ["2026-07-10", "2026-07-10T12:30:00.000Z"],
    ]);
  });

  it("skips events it cannot place, with a reason", () => {
    const document = [
      "BEGIN:VCALENDAR",
      "BEGIN:VEVENT",
      "DTSTART;TZID=US-Eastern:20260110T083000",
      "SUMMARY:No id",
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:zone",
      "DTSTART;TZID=Mars-Central:20260110T083000",
      "SUMMARY:Odd zone",
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:twice",
      "DTSTART;TZID=US-Eastern:20260110T083000",
      "SUMMARY:First",
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:twice",
      "DTSTART;TZID=US-Eastern:20260111T083000",
      "SUMMARY:Second",
      "END:VEVENT",
      "END:VCALENDAR",
    ].join("\n");
    const { events, skipped } = parseBlsReleaseSchedule(document);
    expect(events.map((event) => event.title)).toEqual(["First"]);
    expect(skipped).toEqual([
      { record: "line 2", kind: "UNREADABLE", reason: "no UID", title: "No id", scheduledDate: null },
      {
        record: "zone",
        kind: "UNREADABLE",
        reason: "DTSTART time zone Mars-Central is not known",
        title: "Odd zone",
        scheduledDate: null,
      },
      {
        record: "twice",
        kind: "SECOND_RECORD_WITH_ONE_ID",
        reason: 'second record with this id (2026-01-11 "Second")',
        title: "Second",
        scheduledDate: "2026-01-11",
      },
    ]);
  });

  it("refuses a document that is not iCalendar (an HTML 403 page, say)", () => {
    expect(() => parseBlsReleaseSchedule("<html><body>Access Denied</body></html>")).toThrow(UpstreamDocumentError);
  });
});
