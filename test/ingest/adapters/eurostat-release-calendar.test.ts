import { describe, expect, it } from "vitest";
import { parseEurostatReleaseCalendar } from "../../../cli/ingest/adapters/eurostat-release-calendar.ts";
import { UpstreamDocumentError } from "../../../cli/ingest/adapters/upstream-document-error.ts";
import type { SourceEvent } from "../../../cli/ingest/records.ts";
import { sample } from "./samples.ts";

const SOURCE = "eu-stats-release-calendar";
const july = parseEurostatReleaseCalendar(
  sample(SOURCE, "eurostat-release-calendar-2023-07-19.json"),
  "2023-07-19T09:00:00Z",
);
const august = parseEurostatReleaseCalendar(
  sample(SOURCE, "eurostat-release-calendar-2023-08-01.json"),
  "2023-08-01T09:00:00Z",
);
const byId = (events: SourceEvent[]) => new Map(events.map((event) => [event.sourceEventId, event]));

/** One record in the shape of the recorded ones, for cases the recordings lack. */
function record(fields: Record<string, unknown>): string {
  return JSON.stringify([
    { recordid: "1", title: "Test", period: "", start: "2023-08-17T10:00:00Z", allDay: true, ...fields },
  ]);
}

describe("Eurostat release calendar (JSON)", () => {
  it("reads every record but the one dated 2189", () => {
    expect(july.events).toHaveLength(462);
    expect(august.events).toHaveLength(481);
    // Line 15 of both files: "R&amp;D expenditure ", start 2189-05-10T10:00:00Z.
    for (const snapshot of [july, august]) {
      expect(snapshot.skipped).toHaveLength(1);
      expect(snapshot.skipped[0]!.record).toBe("13018735");
      expect(snapshot.skipped[0]!.reason).toContain("2189-05-10");
      expect(snapshot.skipped[0]).toMatchObject({
        kind: "DATE_THE_SOURCE_GETS_WRONG",
        title: "R&D expenditure",
        scheduledDate: "2189-05-10",
      });
    }
  });

  it("reads a record field by field (2023-07-19 file, line 444)", () => {
    expect(byId(july.events).get("15586146")).toEqual({
      source: SOURCE,
      sourceEventId: "15586146",
      title: "International trade in goods",
      scheduledDate: "2023-08-16",
      scheduledAt: null,
      timePrecision: "DATE_ONLY",
      sourceTimezone: "Europe/Luxembourg",
      referencePeriod: { kind: "MONTH", code: "2023-06", startDate: "2023-06-01", endDate: "2023-06-30" },
      referencePeriodText: "June 2023",
      sourceStatus: "SCHEDULED",
      sourceUrl: null,
    });
  });

  it("takes the date in Luxembourg, winter and summer, and never the placeholder noon as a time", () => {
    // 2023-08-01 file, line 30: start 2022-02-15T11:00:00Z (12:00 CET), period "Q4 2021".
    const winter = byId(august.events).get("13754494")!;
    expect([winter.scheduledDate, winter.scheduledAt, winter.referencePeriod?.code]).toEqual([
      "2022-02-15",
      null,
      "2021-Q4",
    ]);
    expect(august.events.every((event) => event.scheduledAt === null && event.timePrecision === "DATE_ONLY")).toBe(
      true,
    );
  });

  it("decodes HTML entities and trims titles", () => {
    // Line 2 of both files: "… construction &#8211; 2021 edition".
    expect(byId(july.events).get("13926196")!.title).toBe(
      "European business statistics methodological manual for compiling the monthly index of production in construction \u2013 2021 edition",
    );
    // 2023-07-19 file, line 452: "R&amp;D expenditure".
    expect(byId(july.events).get("16312148")!.title).toBe("R&D expenditure");
  });

  it("shows the reschedule and the removal as differences between the two snapshots", () => {
    const before = byId(july.events);
    const after = byId(august.events);
    const moved = [...after.values()].filter(
      (event) =>
        before.has(event.sourceEventId) && before.get(event.sourceEventId)!.scheduledDate !== event.scheduledDate,
    );
    expect(moved).toHaveLength(6);
    expect([before.get("15586146")!.scheduledDate, after.get("15586146")!.scheduledDate]).toEqual([
      "2023-08-16",
      "2023-08-17",
    ]);
    const removed = [...before.values()].filter((event) => !after.has(event.sourceEventId));
    // 2023-07-19 file, line 260: "New inflation dashboard", 2023-09-01.
    expect(removed.map((event) => [event.sourceEventId, event.title, event.scheduledDate])).toEqual([
      ["16847351", "New inflation dashboard", "2023-09-01"],
    ]);
    expect([...after.keys()].filter((id) => !before.has(id))).toHaveLength(20);
  });

  it("reads a reference period only when the text names exactly one", () => {
    const period = (text: string) =>
      parseEurostatReleaseCalendar(record({ period: text }), "2023-08-01T00:00:00Z").events[0]!.referencePeriod?.code ??
      null;
    expect(period("June 2023")).toBe("2023-06");
    expect(period("May 2023")).toBe("2023-05");
    expect(period("Q2 2023")).toBe("2023-Q2");
    expect(period("Q2/2023 ")).toBe("2023-Q2");
    expect(period("2023Q2")).toBe("2023-Q2");
    expect(period("2022")).toBe("2022");
    for (const ambiguous of [
      "June 2023 and Q2/2023",
      "Q2/23",
      "2022 - 1st notification",
      "2019-2050",
      "2023 edition",
      "data up to December 2022",
      "",
    ]) {
      expect(period(ambiguous)).toBeNull();
    }
    expect(byId(august.events).get("15586146")!.referencePeriod?.kind).toBe("MONTH");
  });

  it("keeps the period text even when it cannot be read", () => {
    const [event] = parseEurostatReleaseCalendar(
      record({ period: "September 2023 and Q3/2023" }),
      "2023-08-01T00:00:00Z",
    ).events;
    expect([event!.referencePeriod, event!.referencePeriodText]).toEqual([null, "September 2023 and Q3/2023"]);
  });

  it("gives a time only for a record that says it is not all-day", () => {
    const [event] = parseEurostatReleaseCalendar(
      record({ allDay: false, start: "2023-08-17T09:00:00Z" }),
      "2023-08-01T00:00:00Z",
    ).events;
    expect([event!.scheduledDate, event!.scheduledAt, event!.timePrecision]).toEqual([
      "2023-08-17",
      "2023-08-17T09:00:00.000Z",
      "EXACT_TIME",
    ]);
  });

  it("refuses a document that is not a JSON array of records", () => {
    expect(() => parseEurostatReleaseCalendar("<html>", "2023-08-01T00:00:00Z")).toThrow(UpstreamDocumentError);
    expect(() => parseEurostatReleaseCalendar('{"events":[]}', "2023-08-01T00:00:00Z")).toThrow(UpstreamDocumentError);
  });
});

describe("Eurostat euro-indicator calendar for October to December 2026 (eventsJson, retrieved by 2026-09-12)", () => {
  const q4 = parseEurostatReleaseCalendar(
    sample(SOURCE, "eurostat-release-calendar-retrieved-2026-09-12-for-2026-10-01_2027-01-01.json"),
    "2026-09-12T00:00:00Z",
  );
  const titled = (title: string) => q4.events.filter((event) => event.title === title);

  it("reads all 55 records as date-only events in Luxembourg, the T11:00Z of all-day records being no time", () => {
    expect(q4.events).toHaveLength(55);
    expect(q4.skipped).toEqual([]);
    expect(
      q4.events.every(
        (event) =>
          event.scheduledAt === null &&
          event.timePrecision === "DATE_ONLY" &&
          event.sourceTimezone === "Europe/Luxembourg",
      ),
    ).toBe(true);
    expect(q4.events.map((event) => event.scheduledDate).sort()).toEqual(
      expect.arrayContaining(["2026-10-01", "2026-12-18"]),
    );
    expect(byId(q4.events).get("22494146")).toMatchObject({
      title: "Unemployment",
      scheduledDate: "2026-10-01",
      referencePeriodText: "August 2026",
      referencePeriod: { kind: "MONTH", code: "2026-08" },
    });
  });

  it("reads a period only where the record names exactly one", () => {
    expect(titled("House price index")[0]!.referencePeriod).toMatchObject({ kind: "QUARTER", code: "2026-Q2" });
    for (const text of ["Sept 2026 - Q3/2026", "June 2026 - Q2/2026", "2025 - 2nd notification"]) {
      const event = q4.events.find((candidate) => candidate.referencePeriodText === text)!;
      expect(event.referencePeriod, text).toBeNull();
    }
  });

  it("keeps the records the ECB and the Commission author in Eurostat's calendar", () => {
    expect(titled("Interest rates (3 months)")).toHaveLength(3);
    expect(titled("Economic Sentiment Indicator & Business and Consumer Survey results")).toHaveLength(2);
  });
});
