import { describe, expect, it } from "vitest";
import { readIcsCalendar } from "../../cli/ingest/adapters/ics.ts";
import { createRememberedReads } from "../../cli/ingest/adapters/remembered-reads.ts";

describe("remembered reads", () => {
  it("reads each text once, and starts afresh past its limit", () => {
    const reads: string[] = [];
    const remembered = createRememberedReads<number>(2);
    const read = (text: string) => {
      reads.push(text);
      return text.length;
    };
    expect([remembered("a", read), remembered("bb", read), remembered("a", read), remembered("bb", read)]).toEqual([
      1, 2, 1, 2,
    ]);
    expect(reads).toEqual(["a", "bb"]);
    remembered("ccc", read);
    remembered("a", read);
    expect(reads).toEqual(["a", "bb", "ccc", "a"]);
  });

  it("keeps an iCalendar start apart per zone: one DTSTART text is another instant in another calendar's zone", () => {
    // Constructed for this test (not a publisher's document): a floating, a UTC and a date-only start.
    const text = [
      "BEGIN:VCALENDAR",
      "BEGIN:VEVENT",
      "UID:a",
      "SUMMARY:A",
      "DTSTART:20250301T003000",
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:b",
      "SUMMARY:B",
      "DTSTART:20250301T003000Z",
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:c",
      "SUMMARY:C",
      "DTSTART;VALUE=DATE:20250301",
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n");
    const read = (zone: string) =>
      readIcsCalendar(text, { source: "labour-stats-release-schedule", zone, tzidZones: {} }).events.map((event) => [
        event.scheduledDate,
        event.scheduledAt,
      ]);
    for (let round = 0; round < 2; round++) {
      expect(read("America/New_York")).toEqual([
        ["2025-03-01", "2025-03-01T05:30:00.000Z"],
        ["2025-02-28", "2025-03-01T00:30:00.000Z"],
        ["2025-03-01", null],
      ]);
      expect(read("Europe/Berlin")).toEqual([
        ["2025-03-01", "2025-02-28T23:30:00.000Z"],
        ["2025-03-01", "2025-03-01T00:30:00.000Z"],
        ["2025-03-01", null],
      ]);
    }
  });
});
