import { afterAll, describe, expect, it } from "vitest";
import { removeEconomicsDataDirs } from "../support/economics-index.ts";
import { type Entry, edgeCaseEventsService, ID, idsOf, MARCH, sorted } from "./credentialed-events-fixtures.ts";

afterAll(removeEconomicsDataDirs);

const LOCAL_FIELDS = ["localDate", "localTime", "localTimeZone"];

describe("GET /api/v1/economics/events over a synthetic index", () => {
  const { events, expectError } = edgeCaseEventsService();

  describe("tz and the local projection", () => {
    it("defaults to UTC and refuses an unknown zone with VALIDATION_FAILED", async () => {
      await expectError(`${MARCH}&tz=Mars/Olympus_Mons`, 400, "VALIDATION_FAILED");
      await expectError(`${MARCH}&tz=%2B05:00`, 400, "VALIDATION_FAILED");
      const defaulted = await events("from=2026-03-10&to=2026-03-10");
      const explicit = await events("from=2026-03-10&to=2026-03-10&tz=UTC");
      expect(idsOf(defaulted.body)).toEqual(idsOf(explicit.body));
    });

    it("omits the three local fields with neither tz nor timezone, and includes them with either", async () => {
      const plain = await events(MARCH);
      for (const entry of plain.body.data.entries)
        for (const field of LOCAL_FIELDS) expect(entry).not.toHaveProperty(field);
      const emptySwitch = await events(`${MARCH}&timezone=`);
      for (const entry of emptySwitch.body.data.entries) expect(entry).not.toHaveProperty("localDate");
      for (const query of [`${MARCH}&tz=UTC`, `${MARCH}&timezone=1`, `${MARCH}&tz=Pacific/Kiritimati`]) {
        const { body } = await events(query);
        for (const entry of body.data.entries)
          for (const field of LOCAL_FIELDS) expect(entry, query).toHaveProperty(field);
      }
    });

    it("treats timezone as a switch only: its value is never read, the zone comes from tz", async () => {
      const { body } = await events(`${MARCH}&timezone=America/Los_Angeles`);
      const cpi = body.data.entries.find((entry: Entry) => entry.id === ID.cpi0311);
      expect(cpi).toMatchObject({ localDate: "2026-03-11", localTime: "12:30", localTimeZone: "UTC" });
      const both = await events(`${MARCH}&tz=Pacific/Kiritimati&timezone=Europe/Paris`);
      expect(both.body.data.entries.find((entry: Entry) => entry.id === ID.cpi0311).localTimeZone).toBe(
        "Pacific/Kiritimati",
      );
    });

    it("projects timed events into the zone and keeps a date-only event's date with no time", async () => {
      const kiritimati = await events(`${MARCH}&tz=Pacific/Kiritimati`);
      const k = new Map<string, Entry>(kiritimati.body.data.entries.map((entry: Entry) => [entry.id, entry]));
      expect(k.get(ID.cpi0311)).toMatchObject({
        scheduledDate: "2026-03-11",
        scheduledAt: "2026-03-11T12:30:00.000Z",
        localDate: "2026-03-12",
        localTime: "02:30",
        localTimeZone: "Pacific/Kiritimati",
      });
      expect(k.get(ID.hicpFlash0312)).toMatchObject({
        localDate: "2026-03-12",
        localTime: null,
        localTimeZone: "Pacific/Kiritimati",
      });
      const losAngeles = await events(`${MARCH}&tz=America/Los_Angeles`);
      const l = new Map<string, Entry>(losAngeles.body.data.entries.map((entry: Entry) => [entry.id, entry]));
      // 2026-03-09 is after the US switch to daylight time (UTC-7).
      expect(l.get(ID.employment0309)).toMatchObject({
        localDate: "2026-03-09",
        localTime: "05:30",
        localTimeZone: "America/Los_Angeles",
      });
      expect(l.get(ID.hicpFlash0312)).toMatchObject({ localDate: "2026-03-12", localTime: null });
    });
  });

  describe("from and to", () => {
    it("reads bare dates in UTC by default; a bare to is the start of the next day, so it admits the next UTC date", async () => {
      const { body } = await events("from=2026-03-10&to=2026-03-10");
      expect(sorted(idsOf(body))).toEqual(sorted([ID.ppi0310, ID.cpi0311, ID.realEarnings0311, ID.jolts0311]));
    });

    it("Pacific/Kiritimati (UTC+14): bare dates fall on the previous UTC date, one day before the date written", async () => {
      const { body } = await events("from=2026-03-10&to=2026-03-10&tz=Pacific/Kiritimati");
      // from = 2026-03-09T10:00Z, to = 2026-03-10T10:00Z: UTC dates 03-09 .. 03-10 against scheduledDate.
      expect(idsOf(body)).toEqual([ID.employment0309, ID.ppi0310]);
    });

    it("America/Los_Angeles (UTC-7): a bare to admits events dated the next UTC day", async () => {
      const { body } = await events("from=2026-03-10&to=2026-03-10&tz=America/Los_Angeles");
      // from = 2026-03-10T07:00Z, to = 2026-03-11T07:00Z: UTC dates 03-10 .. 03-11.
      expect(sorted(idsOf(body))).toEqual(sorted([ID.ppi0310, ID.cpi0311, ID.realEarnings0311, ID.jolts0311]));
      const next = await events("from=2026-03-11&to=2026-03-11&tz=America/Los_Angeles");
      expect(sorted(idsOf(next.body))).toEqual(
        sorted([
          ID.cpi0311,
          ID.realEarnings0311,
          ID.jolts0311,
          ID.unemployment0312,
          ID.industrialProduction0312,
          ID.hicpFlash0312,
        ]),
      );
    });

    it("reduces instants with Z or an offset to their UTC date", async () => {
      const utc = await events("from=2026-03-11T00:00:00Z&to=2026-03-11T23:59:59Z");
      expect(sorted(idsOf(utc.body))).toEqual(sorted([ID.cpi0311, ID.realEarnings0311, ID.jolts0311]));
      // 20:00 on the 10th in Los Angeles is 03:00Z on the 11th: the PPI of the 10th is left out.
      const lateEvening = await events(
        `from=${encodeURIComponent("2026-03-10T20:00:00-07:00")}&to=2026-03-11T12:00:00Z`,
      );
      expect(sorted(idsOf(lateEvening.body))).toEqual(sorted([ID.cpi0311, ID.realEarnings0311, ID.jolts0311]));
      // 08:00 on the 11th in Kiritimati is 18:00Z on the 10th: the events of the 11th are left out.
      for (const offset of ["+14:00", "+1400"]) {
        const earlyMorning = await events(`from=2026-03-09&to=${encodeURIComponent(`2026-03-11T08:00:00${offset}`)}`);
        expect(idsOf(earlyMorning.body), offset).toEqual([ID.employment0309, ID.ppi0310]);
      }
    });

    it("refuses a timestamp without a zone or anything unparsable with ECONOMICS_RANGE_INVALID", async () => {
      for (const query of [
        "from=2026-03-10T10:00:00",
        "to=2026-03-10T10:00",
        "from=2026-03-10T10:00:00&to=2026-03-11T10:00:00Z",
        "from=yesterday",
        "to=2026-3-10",
        "from=2026-02-30",
        "from=2026-03-10T25:00:00Z",
        "from=10/03/2026",
        "to=2026-03-10Z",
      ])
        await expectError(query, 400, "ECONOMICS_RANGE_INVALID");
    });

    it("refuses a start not before the end", async () => {
      await expectError("from=2026-03-11&to=2026-03-10", 400, "ECONOMICS_RANGE_INVALID");
      await expectError("from=2026-03-10T12:00:00Z&to=2026-03-10T12:00:00Z", 400, "ECONOMICS_RANGE_INVALID");
      await expectError("from=2026-03-10T12:00:00Z&to=2026-03-10T11:00:00Z", 400, "ECONOMICS_RANGE_INVALID");
      // A bare to expands to the next day, so the same bare date on both sides is a one-day range.
      expect((await events("from=2026-03-10&to=2026-03-10")).status).toBe(200);
      const oneSecond = await events("from=2026-03-10T12:00:00Z&to=2026-03-10T12:00:01Z");
      expect(idsOf(oneSecond.body)).toEqual([ID.ppi0310]);
    });

    it("accepts a span of exactly 400 days and refuses a longer one", async () => {
      expect((await events("from=2026-01-01&to=2027-02-04")).status).toBe(200);
      await expectError("from=2026-01-01&to=2027-02-05", 400, "ECONOMICS_RANGE_INVALID");
      expect((await events("from=2026-01-01T00:00:00Z&to=2027-02-05T00:00:00Z")).status).toBe(200);
      await expectError("from=2026-01-01T00:00:00Z&to=2027-02-05T00:00:01Z", 400, "ECONOMICS_RANGE_INVALID");
      expect((await events("from=2026-01-01&to=2027-02-04&tz=America/Los_Angeles")).status).toBe(200);
      await expectError("from=2026-01-01&to=2027-02-05&tz=Pacific/Kiritimati", 400, "ECONOMICS_RANGE_INVALID");
    });
  });
});
