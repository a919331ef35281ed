import { describe, expect, it } from "vitest";
import { assembleDailyRecords } from "../../server/weather/daily.ts";
import type { DailyRecord } from "../../server/weather/model.ts";
import { loadMetFixture, payloadFrom, shiftedMetFixture, syntheticMetDocument } from "./met-fixtures.ts";

// Expected sums, extremes and symbols were worked out by hand from the fixture files (the steps named beside each).

function day(records: DailyRecord[], date: string): DailyRecord {
  const record = records.find((candidate) => candidate.date === date);
  if (record === undefined) throw new Error(`no record for ${date}`);
  return record;
}

describe("assembleDailyRecords in UTC", () => {
  const records = assembleDailyRecords(payloadFrom(loadMetFixture("complete-berlin-2022-08-02")), "UTC");

  it("gives one record per day from the first step (08-02 16Z) to the last (08-11 18Z), partial at both ends", () => {
    expect(records.map((record) => record.date)).toEqual([
      "2022-08-02",
      "2022-08-03",
      "2022-08-04",
      "2022-08-05",
      "2022-08-06",
      "2022-08-07",
      "2022-08-08",
      "2022-08-09",
      "2022-08-10",
      "2022-08-11",
    ]);
    expect(records.map((record) => [record.partial, record.hoursCovered])).toEqual([
      [true, 8],
      [false, 24],
      [false, 24],
      [false, 24],
      [false, 24],
      [false, 24],
      [false, 24],
      [false, 24],
      [false, 24],
      [true, 18],
    ]);
  });

  it("marks every record as derived by aggregation", () => {
    for (const record of records) {
      expect(record.derivation).toBe("SERVICE_DERIVED");
      expect(record.transformation).toContain("AGGREGATION");
    }
  });

  it("assembles a 6-hourly day (08-05) from its four periods and instants", () => {
    // Periods at 00Z, 06Z, 12Z, 18Z: precipitation 0.0 + 2.7 + 0.0 + 0.0; minimum 14.7 from the 18Z period,
    // maximum 23.5 from the 00Z period (the instants only span 19.0 to 23.3). At noon the 12Z period says cloudy.
    expect(day(records, "2022-08-05")).toMatchObject({
      precipitationMm: 2.7,
      temperatureMinC: 14.7,
      temperatureMaxC: 23.5,
      condition: { code: "CLOUDY", thunder: false, dayPart: null },
    });
  });

  it("takes the condition of the 6-hour period centred on noon (08-03: 09Z to 15Z, partlycloudy_day)", () => {
    expect(day(records, "2022-08-03").condition).toEqual({ code: "PARTLY_CLOUDY", thunder: false, dayPart: "DAY" });
    expect(day(records, "2022-08-03")).toMatchObject({
      temperatureMinC: 16.5,
      temperatureMaxC: 32,
      precipitationMm: 0,
    });
  });

  it("falls back to the condition covering most hours on a day the forecast does not reach at noon", () => {
    // 08-02 16Z to 23Z: partlycloudy 6 hours (day 3, night 3), cloudy 2 hours.
    expect(day(records, "2022-08-02").condition).toEqual({ code: "PARTLY_CLOUDY", thunder: false, dayPart: "DAY" });
  });

  it("sums 1-hour amounts exactly (Oslo 02-07: 0.6 + 0.5 + 0.3 + 0.2 + 0.2, the rest 0.0)", () => {
    const oslo = assembleDailyRecords(payloadFrom(loadMetFixture("compact-oslo-2026-02-06")), "UTC");
    expect(day(oslo, "2026-02-07")).toMatchObject({
      precipitationMm: 1.8,
      temperatureMinC: -6.2,
      temperatureMaxC: -2.7,
      hoursCovered: 24,
      partial: false,
      // 6-hour period 09Z to 15Z.
      condition: { code: "CLOUDY", thunder: false, dayPart: null },
    });
  });

  it("refuses an unknown zone", () => {
    expect(() =>
      assembleDailyRecords(payloadFrom(loadMetFixture("compact-oslo-2026-02-06")), "Mars/Olympus_Mons"),
    ).toThrow(RangeError);
  });
});

describe("assembleDailyRecords in local zones", () => {
  it("Europe/Oslo: the first local day starts at 22:00 (21Z), two hours of snow", () => {
    const records = assembleDailyRecords(payloadFrom(loadMetFixture("compact-oslo-2026-02-06")), "Europe/Oslo");
    expect(records[0]).toMatchObject({
      date: "2026-02-06",
      precipitationMm: 1.2,
      temperatureMinC: -5.9,
      temperatureMaxC: -5.8,
      partial: true,
      hoursCovered: 2,
      condition: { code: "SNOW", thunder: false, dayPart: null },
    });
    // 02-07 local is 23Z to 23Z: 0.8 + 0.6 + 0.5 + 0.3 + 0.2 + 0.2.
    expect(day(records, "2026-02-07")).toMatchObject({ precipitationMm: 2.6, partial: false, hoursCovered: 24 });
  });

  it("America/New_York: compact Brisbane, 2025-11-02 is a real 25-hour day", () => {
    const records = assembleDailyRecords(
      payloadFrom(loadMetFixture("compact-brisbane-2025-10-29")),
      "America/New_York",
    );
    // The first step, 10-29 01Z, is 21:00 on 10-28 in New York.
    expect(records[0]).toMatchObject({ date: "2025-10-28", partial: true, hoursCovered: 3 });
    // 04Z 11-02 to 05Z 11-03. Periods starting inside: 06Z 0.0, 12Z 0.0, 18Z 0.3, 00Z 1.1. Instants 26.1, 22.9,
    // 21.8, 27.5 (compact: no period extremes). Noon EST is 17Z, inside the 12Z period (fair_night).
    expect(day(records, "2025-11-02")).toMatchObject({
      precipitationMm: 1.4,
      temperatureMinC: 21.8,
      temperatureMaxC: 27.5,
      hoursCovered: 25,
      partial: false,
      condition: { code: "FAIR", thunder: false, dayPart: "NIGHT" },
    });
  });

  it("America/New_York: a day after the last period is partial and says nothing it does not know", () => {
    const records = assembleDailyRecords(payloadFrom(loadMetFixture("complete-london-2020-07-20")), "America/New_York");
    // The last step, 07-29 06Z, is 02:00 local; the 00Z period that reaches it started on 07-28 local.
    expect(records.at(-1)).toMatchObject({
      date: "2020-07-29",
      precipitationMm: null,
      condition: null,
      temperatureMinC: 17.4,
      temperatureMaxC: 17.4,
      partial: true,
      hoursCovered: 2,
    });
  });
});

describe("daylight-saving days (compact Brisbane shifted so that its hourly range covers the change)", () => {
  it.each([
    // zone, first step moved to, local day, hours, steps of the original file inside that day, their 1-hour sum
    ["America/New_York", "2026-03-07T20:00:00Z", "2026-03-08", 23, "9 to 31", 4.6],
    ["Europe/Oslo", "2026-03-28T20:00:00Z", "2026-03-29", 23, "3 to 25", 0.9],
    ["Europe/Oslo", "2026-10-24T20:00:00Z", "2026-10-25", 25, "2 to 26", 1.5],
    ["America/New_York", "2026-10-31T20:00:00Z", "2026-11-01", 25, "8 to 32", 5.3],
    // The Azores change at midnight: this day begins at 01:00 (01Z) and the next at 00:00 (00Z).
    ["Atlantic/Azores", "2026-03-28T20:00:00Z", "2026-03-29", 23, "5 to 27", 1.7],
  ])("%s from %s: %s has %i hours", (zone, firstStepAt, date, hours, _steps, precipitationMm) => {
    const records = assembleDailyRecords(
      payloadFrom(shiftedMetFixture("compact-brisbane-2025-10-29", firstStepAt)),
      zone,
    );
    expect(day(records, date)).toMatchObject({
      hoursCovered: hours,
      partial: false,
      precipitationMm,
      temperatureMinC: 16.4,
      temperatureMaxC: 25.3,
    });
  });

  it("counts the Oslo spring day exactly: 0.9 where adding floats gives 0.8999999999999999", () => {
    const records = assembleDailyRecords(
      payloadFrom(shiftedMetFixture("compact-brisbane-2025-10-29", "2026-03-28T20:00:00Z")),
      "Europe/Oslo",
    );
    expect(day(records, "2026-03-29").precipitationMm).toBe(0.9);
    expect(day(records, "2026-03-30")).toMatchObject({ hoursCovered: 24, partial: false });
  });
});

describe("overlapping provider periods", () => {
  it("counts the hourly range from 1-hour periods and never adds the 6-hour periods that overlap them", () => {
    const payload = payloadFrom(
      syntheticMetDocument([
        // Every hourly step also starts a 6-hour period, as MET's do; their large amounts would show any double count.
        { time: "2026-01-15T00:00:00Z", oneHour: { precipitationMm: 0.1 }, sixHours: { precipitationMm: 9.1 } },
        { time: "2026-01-15T01:00:00Z", oneHour: { precipitationMm: 0.2 }, sixHours: { precipitationMm: 9.2 } },
        { time: "2026-01-15T02:00:00Z", oneHour: { precipitationMm: 0.3 }, sixHours: { precipitationMm: 9.3 } },
        { time: "2026-01-15T03:00:00Z", oneHour: { precipitationMm: 0 }, sixHours: { precipitationMm: 9.4 } },
        { time: "2026-01-15T04:00:00Z", oneHour: { precipitationMm: 0.4 }, sixHours: { precipitationMm: 9.5 } },
        { time: "2026-01-15T05:00:00Z", oneHour: { precipitationMm: 0.5 }, sixHours: { precipitationMm: 9.6 } },
        { time: "2026-01-15T06:00:00Z", sixHours: { precipitationMm: 2 } },
        { time: "2026-01-15T12:00:00Z", sixHours: { precipitationMm: 1 } },
        { time: "2026-01-15T18:00:00Z" },
      ]),
    );
    // 0.1 + 0.2 + 0.3 + 0 + 0.4 + 0.5 (00Z to 06Z) + 2 (06Z to 12Z) + 1 (12Z to 18Z); nothing after 18Z.
    expect(assembleDailyRecords(payload, "UTC")).toEqual([
      expect.objectContaining({
        date: "2026-01-15",
        precipitationMm: 4.5,
        hoursCovered: 18,
        partial: true,
      }),
    ]);
  });

  it("leaves hours uncovered rather than add a 6-hour period that overlaps one already counted", () => {
    const payload = payloadFrom(
      syntheticMetDocument([
        { time: "2026-01-15T00:00:00Z", oneHour: { precipitationMm: 0.1 } },
        { time: "2026-01-15T01:00:00Z", oneHour: { precipitationMm: 0.2 } },
        { time: "2026-01-15T02:00:00Z", sixHours: { precipitationMm: 1 } },
        // 06Z to 12Z overlaps 02Z to 08Z, so 08Z to 12Z stays uncovered.
        { time: "2026-01-15T06:00:00Z", sixHours: { precipitationMm: 5 } },
        { time: "2026-01-15T12:00:00Z" },
      ]),
    );
    expect(assembleDailyRecords(payload, "UTC")[0]).toMatchObject({
      precipitationMm: 1.3,
      hoursCovered: 8,
      partial: true,
    });
  });
});

describe("a period crossing local midnight", () => {
  // In Oslo in winter (UTC+1) the 18Z period runs 19:00 to 01:00 local.
  const payload = payloadFrom(
    syntheticMetDocument([
      { time: "2026-01-15T12:00:00Z", temperatureC: 2, sixHours: { precipitationMm: 0.4, minC: 1, maxC: 3 } },
      {
        time: "2026-01-15T18:00:00Z",
        temperatureC: 1.5,
        sixHours: { precipitationMm: 1.2, minC: -20, maxC: 20, symbol: "snow" },
      },
      { time: "2026-01-16T00:00:00Z", temperatureC: -0.5, sixHours: { precipitationMm: 0.3, minC: -1, maxC: 0 } },
      { time: "2026-01-16T06:00:00Z", temperatureC: -1 },
    ]),
  );
  const [first, second] = assembleDailyRecords(payload, "Europe/Oslo");

  it("counts its whole amount towards the day it starts in", () => {
    expect(first).toMatchObject({ date: "2026-01-15", precipitationMm: 1.6 });
    expect(second).toMatchObject({ date: "2026-01-16", precipitationMm: 0.3 });
  });

  it("still counts its hour after midnight as covered in the next day", () => {
    expect(first).toMatchObject({ hoursCovered: 11, partial: true }); // 13:00 to 24:00
    expect(second).toMatchObject({ hoursCovered: 7, partial: true }); // 00:00 to 07:00
  });

  it("lends its minimum and maximum to neither day, since it does not say on which side they fell", () => {
    expect(first).toMatchObject({ temperatureMinC: 1, temperatureMaxC: 3 });
    expect(second).toMatchObject({ temperatureMinC: -1, temperatureMaxC: 0 });
  });

  it("is counted the ordinary way where it does not cross midnight (UTC)", () => {
    expect(
      assembleDailyRecords(payload, "UTC").map((record) => [
        record.date,
        record.precipitationMm,
        record.temperatureMinC,
      ]),
    ).toEqual([
      ["2026-01-15", 1.6, -20],
      ["2026-01-16", 0.3, -1],
    ]);
  });
});
