import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { DateTime } from "luxon";
import { afterAll, describe, expect, it } from "vitest";
import { deriveValues, type InputVintage } from "../../cli/ingest/derive-series.ts";
import { isTargetBusinessDay, lastTargetBusinessDay } from "../../cli/ingest/target-business-days.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { inputLedgerKey } from "../../schemas/registry.ts";
import { runIngestion } from "../support/compiled-ingestion.ts";
import { writeDatedDocument } from "../support/dated-documents.ts";
import { type RunningService, startService } from "../support/service.ts";
import { removeTempDirs, SAMPLES_DIR, tempDir } from "./cli-process.ts";

afterAll(removeTempDirs);

/**
 * The €STR, a daily rate, served in the spec's period forms: by month, as the rate for the month's last TARGET business
 * day (SERVICE_DERIVED), and only for months whose last TARGET business day has been read. The one recording covers
 * 2 to 10 January 2025, so it states no month; a labelled modified copy of it shows what a complete month gives.
 */

const registry = readRegistrySources(new Date("2026-07-24T00:00:00Z"));
const SLUG = "ecb-euro-short-term-rate-month-end";
const RULE = registry.series.find((series) => series.slug === SLUG)!.derived!;
const INPUT = "EST.B.EU000A2X2A25.WT";
const RECORDING = "2026-06-24-ecb-est-estr-2025-01-02_2025-01-10.jsondata.json";
const recording = readFileSync(join(SAMPLES_DIR, "ecb-data", RECORDING), "utf8");
const OBSERVATIONS = "/api/public/v1/economics/observations";

const day = (referencePeriod: string, value: string | null, sequence = 1): InputVintage => ({
  referencePeriod,
  value,
  publicationStatus: "A",
  note: value === null ? "no value" : null,
  sequence,
  documentSha256: "d".repeat(64),
  documentFetchedAt: "2026-06-24T00:00:00.000Z",
});
/** The recording's WT rates, 2 to 10 January 2025 (its OBS_STATUS is A, "normal value", throughout). */
const RECORDED_DAYS = [
  ["2025-01-02", "2.92"],
  ["2025-01-03", "2.919"],
  ["2025-01-06", "2.917"],
  ["2025-01-07", "2.918"],
  ["2025-01-08", "2.917"],
  ["2025-01-09", "2.92"],
  ["2025-01-10", "2.917"],
].map(([date, value]) => day(date!, value!));

describe("the last TARGET business day of a month", () => {
  it.each([
    ["2025-01", "2025-01-31"], // a Friday
    ["2025-05", "2025-05-30"], // 31 May 2025 is a Saturday
    ["2022-12", "2022-12-30"], // 31 December 2022 is a Saturday; 31 December itself is a TARGET day when a weekday
    ["2025-12", "2025-12-31"],
    ["2024-03", "2024-03-28"], // Good Friday 29 March 2024, then the weekend
    ["2018-03", "2018-03-29"], // Good Friday 30 March 2018, Saturday 31
    ["1997-03", "1997-03-27"], // Easter Monday 31 March 1997, after Good Friday 28 and the weekend
    ["2027-03", "2027-03-31"], // Easter Monday 29 March 2027 is not the month's end
  ])("%s is %s", (month, expected) => {
    expect(lastTargetBusinessDay(month)).toBe(expected);
  });

  it("closes on New Year's Day, Good Friday, Easter Monday, 1 May, 25 and 26 December and weekends, and on nothing else of 2025", () => {
    const closed: string[] = [];
    for (let date = DateTime.utc(2025, 1, 1); date.year === 2025; date = date.plus({ days: 1 })) {
      if (!isTargetBusinessDay(date) && date.weekday < 6) closed.push(date.toISODate()!);
    }
    expect(closed).toEqual(["2025-01-01", "2025-04-18", "2025-04-21", "2025-05-01", "2025-12-25", "2025-12-26"]);
  });
});

describe("the monthly rule on daily inputs", () => {
  const derive = (inputs: InputVintage[]) => deriveValues(RULE, "ECB", INPUT, inputs, "2026-06-24T00:00:00.000Z");

  it("states no month from the recording: its data end on 10 January, before January's last TARGET business day", () => {
    expect(RULE.kind).toBe("VALUE_ON_LAST_TARGET_BUSINESS_DAY");
    expect(derive(RECORDED_DAYS)).toEqual([]);
  });

  it("states a month once its last TARGET business day has a rate: that rate, as written, with the day as its input", () => {
    expect(derive([...RECORDED_DAYS, day("2025-01-31", "2.916")])).toEqual([
      {
        referencePeriod: "2025-01",
        value: "2.916",
        publicationStatus: "A",
        note: null,
        inputs: [
          {
            sourceSeriesId: INPUT,
            referencePeriod: "2025-01",
            sourcePeriod: "2025-01-31",
            value: "2.916",
            publicationStatus: "A",
            vintage: 1,
            document: { sha256: "d".repeat(64), fetchedAt: "2026-06-24T00:00:00.000Z" },
          },
        ],
      },
    ]);
  });

  it("a later month's data do not complete an earlier one, and a gap earlier in a month does not matter", () => {
    // January ends on the 30th (the 31st not read), February is read only on its last TARGET day (Friday 28th).
    expect(
      derive([day("2025-01-30", "2.9"), day("2025-02-03", "2.8"), day("2025-02-28", "2.686")]).map((month) => [
        month.referencePeriod,
        month.value,
      ]),
    ).toEqual([["2025-02", "2.686"]]);
  });

  it("a last day the publisher states without a value is a null month with the reason, not a dropped one", () => {
    const [month] = derive([day("2025-01-31", null)]);
    expect(month).toMatchObject({
      referencePeriod: "2025-01",
      value: null,
      note: `No value: the publisher states ${INPUT} 2025-01-31 without one (no value).`,
    });
  });
});

describe("ingested by the real pipeline", () => {
  let service: RunningService | null = null;
  afterAll(async () => {
    await service?.close();
  });

  const ingestEcbData = async (files: Record<string, string>) => {
    const archive = tempDir("estr-archive");
    mkdirSync(join(archive, "ecb-data"));
    for (const [name, text] of Object.entries(files)) writeDatedDocument(join(archive, "ecb-data", name), text);
    const dataDir = tempDir("estr-data");
    const summary = await runIngestion({
      dataDir,
      registry,
      mode: { kind: "archive", dir: archive },
      only: ["ecb-data"],
      now: () => Date.parse("2026-07-24T06:00:00.000Z"),
      progress: () => {},
    });
    expect(summary.outcome).toBe("succeeded");
    return dataDir;
  };
  const ledger = (dataDir: string, key: string) => {
    const db = new Database(join(dataDir, "store.sqlite"), { readonly: true });
    try {
      return db
        .prepare(
          "SELECT reference_period AS period, value FROM vintages WHERE series_slug = ? ORDER BY reference_period",
        )
        .all(key) as { period: string; value: string }[];
    } finally {
      db.close();
    }
  };

  it("the sample recording: the daily rates are kept as the derivation's input, the series is registered and shows no value", async () => {
    const dataDir = await ingestEcbData({ [RECORDING]: recording });
    const key = inputLedgerKey(RULE.inputUpstream!);
    expect(ledger(dataDir, key).map((row) => [row.period, row.value])).toEqual(
      RECORDED_DAYS.map((input) => [input.referencePeriod, input.value]),
    );
    expect(ledger(dataDir, SLUG)).toEqual([]);
    service = await startService({ seedDataDir: dataDir });
    const observations = await service.request(`${OBSERVATIONS}?series=${SLUG}`);
    expect(observations.status).toBe(503);
    const releases = await service.request(`/api/public/v1/economics/releases?series=${SLUG}`);
    expect(releases.body.data.releases).toMatchObject([
      { series: { slug: SLUG, frequency: "MONTHLY" }, availability: "UNAVAILABLE", value: null },
    ]);
    await service.close();
    service = null;
  });

  it("a MODIFIED copy of the recording (its last day, 10 January, relabelled 31 January) states January 2025, derived with its input", async () => {
    const modified = recording.replaceAll("2025-01-10", "2025-01-31");
    const name = "2026-06-24-ecb-est-estr-modified-last-day-2025-01-31.jsondata.json";
    const dataDir = await ingestEcbData({ [name]: modified });
    service = await startService({ seedDataDir: dataDir });
    const { status, body } = await service.request(`${OBSERVATIONS}?series=${SLUG}`);
    expect(status).toBe(200);
    const document = {
      sha256: createHash("sha256").update(modified).digest("hex"),
      fetchedAt: "2026-06-24T00:00:00.000Z",
    };
    expect(body.data.observations).toHaveLength(1);
    expect(body.data.observations[0]).toMatchObject({
      referencePeriod: "2025-01",
      value: "2.917",
      provenance: {
        sourceId: "ecb-data",
        adapter: "derive-series",
        derivation: "SERVICE_DERIVED",
        transformation: ["VALUE_ON_LAST_TARGET_BUSINESS_DAY"],
        document,
      },
      derived: {
        formula: RULE.formula,
        inputs: [
          {
            sourceSeriesId: INPUT,
            referencePeriod: "2025-01",
            sourcePeriod: "2025-01-31",
            value: "2.917",
            vintage: 1,
            document,
          },
        ],
      },
    });
  });
});
