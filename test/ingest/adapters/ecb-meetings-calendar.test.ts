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
