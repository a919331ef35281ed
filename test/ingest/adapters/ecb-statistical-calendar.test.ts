import { describe, expect, it } from "vitest";
import { parseEcbStatisticalCalendar } from "../../../cli/ingest/adapters/ecb-statistical-calendar.ts";
import { UpstreamDocumentError } from "../../../cli/ingest/adapters/upstream-document-error.ts";
import { sample } from "./samples.ts";

const SOURCE = "central-bank-statistics-calendar";
const page = sample(SOURCE, "ecb-statscal-2016.html");
const calendar = parseEcbStatisticalCalendar(page);
const titled = (date: string, title: string) =>
  calendar.events.find((event) => event.scheduledDate === date && event.title === title)!;

describe("ECB statistical calendar (HTML)", () => {
  it("reads every release pair after the header pair", () => {
    expect(calendar.events).toHaveLength(147);
    expect(calendar.skipped).toEqual([]);
  });

  it("reads a release field by field (lines 6637-6643)", () => {
    expect(calendar.events[0]).toEqual({
      source: SOURCE,
      sourceEventId: calendar.events[0]!.sourceEventId,
      title: "Euro area quarterly balance of payments and international investment position (Dataset: BP6)",
      scheduledDate: "2016-01-13",
      scheduledAt: "2016-01-13T09:00:00.000Z",
      timePrecision: "EXACT_TIME",
      sourceTimezone: "Europe/Berlin",
      referencePeriod: { kind: "QUARTER", code: "2015-Q3", startDate: "2015-07-01", endDate: "2015-09-30" },
      referencePeriodText: "Q3 2015",
      sourceStatus: "SCHEDULED",
      sourceUrl: null,
    });
    // Line 6649: "Reference period: Nov-2015".
    expect(calendar.events[1]!.referencePeriod).toEqual({
      kind: "MONTH",
      code: "2015-11",
      startDate: "2015-11-01",
      endDate: "2015-11-30",
    });
  });

  it('reads the page\'s year-round "CET" as Frankfurt time, across DST', () => {
    // Line 6904: "22/03/2016 10:00 CET", winter: 09:00Z.
    expect(titled("2016-03-22", "Monthly indicators on government debt securities (Dataset: GFS)").scheduledAt).toBe(
      "2016-03-22T09:00:00.000Z",
    );
    // Line 6911: "29/03/2016 10:00 CET", after summer time began on 27 March: 08:00Z.
    expect(titled("2016-03-29", "Monetary developments in the euro area (Dataset: BSI)").scheduledAt).toBe(
      "2016-03-29T08:00:00.000Z",
    );
    // Line 7268: "01/07/2016 10:00 CET": 08:00Z.
    expect(titled("2016-07-01", "Publication of TARGET balances statistics (Dataset: TGB)").scheduledAt).toBe(
      "2016-07-01T08:00:00.000Z",
    );
  });

  it('leaves a two-period text unread but kept (line 6803: "Dec-2015 / Q4 2015")', () => {
    const event = titled("2016-02-22", "Euro area investment fund statistics (Dataset: IVF)");
    expect([event.referencePeriod, event.referencePeriodText]).toEqual([null, "Dec-2015 / Q4 2015"]);
  });

  it("keeps an event's id when its date moves, so the move shows as a reschedule", () => {
    const moved = parseEcbStatisticalCalendar(
      page.toString("utf8").replace("13/01/2016 10:00 CET", "14/01/2016 10:00 CET"),
    );
    expect(moved.events[0]!.sourceEventId).toBe(calendar.events[0]!.sourceEventId);
    expect(moved.events[0]!.scheduledDate).toBe("2016-01-14");
    expect(new Set(calendar.events.map((event) => event.sourceEventId)).size).toBe(147);
  });

  it("gives a date only when the page gives no time, and skips an unreadable date", () => {
    const edited = page
      .toString("utf8")
      .replace("13/01/2016 10:00 CET", "13/01/2016")
      .replace("14/01/2016 10:00 CET", "soon");
    const { events, skipped } = parseEcbStatisticalCalendar(edited);
    expect([events[0]!.scheduledDate, events[0]!.scheduledAt, events[0]!.timePrecision]).toEqual([
      "2016-01-13",
      null,
      "DATE_ONLY",
    ]);
    expect(skipped).toEqual([
      {
        record: "entry 4",
        kind: "UNREADABLE",
        reason: 'publication date "soon" is not DD/MM/YYYY [HH:MM CET]',
        title: expect.any(String),
        scheduledDate: null,
      },
    ]);
  });

  it("refuses a page without the calendar list", () => {
    expect(() => parseEcbStatisticalCalendar("<html><body>Maintenance</body></html>")).toThrow(UpstreamDocumentError);
  });
});
