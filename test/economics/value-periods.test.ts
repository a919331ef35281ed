import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeEconomicsDataDirs, sampleDataDir } from "../support/economics-index.ts";
import { type RunningService, startService } from "../support/service.ts";

afterAll(removeEconomicsDataDirs);

const OBSERVATIONS = "/api/public/v1/economics/observations";
const SAMPLES = new URL("../../data/samples/", import.meta.url);
const KEY_RATES = "ecb-data/2026-06-30-ecb-fm-key-rates-from-2012.csvdata.csv";
const sha256OfSample = (path: string) =>
  createHash("sha256")
    .update(readFileSync(new URL(path, SAMPLES)))
    .digest("hex");

/**
 * Issue 10 defect 9 and the 2025-2026 recordings, over the sample archive replayed by the real pipeline: every served
 * reference period is in the spec's forms; the ECB key rates are served by month (the rate in force at month end,
 * derived from the ECB's dates of change); Eurostat's JSON-stat values keep their written digits, imputed-value flags
 * and no-data positions.
 */
describe("served reference periods and the recorded 2024-2026 values", () => {
  let service: RunningService;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await sampleDataDir();
    service = await startService({ seedDataDir: dataDir });
  });
  afterAll(() => service.close());

  it("serves no reference period outside YYYY-MM and YYYY-Q<n>", () => {
    const index = new Database(join(dataDir, "index.sqlite"), { readonly: true });
    try {
      const codes = index.prepare("SELECT DISTINCT reference_period FROM observations").pluck().all() as string[];
      expect(codes.length).toBeGreaterThan(100);
      expect(codes.filter((code) => !/^\d{4}-(0[1-9]|1[0-2]|Q[1-4])$/.test(code))).toEqual([]);
    } finally {
      index.close();
    }
  });

  it("serves the ECB deposit facility rate in force at each month's end, derived from the ECB's dates of change", async () => {
    const { body } = await service.request(`${OBSERVATIONS}?series=ecb-deposit-facility-rate&from=2025-05&limit=365`);
    // Changes recorded: 2025-06-11 → 2, 2026-06-17 → 2.25; the recording was fetched on 2026-06-30 (its sidecar: the last
    // second of that day, UTC), before June 2026 had ended, so the series ends with May: the change of 17 June is in no
    // month yet (issue 38, item 5: the old rule served June from it).
    expect(
      body.data.observations.map((row: { referencePeriod: string; value: string }) => [row.referencePeriod, row.value]),
    ).toEqual([
      ["2025-05", "2.25"],
      ["2025-06", "2"],
      ["2025-07", "2"],
      ["2025-08", "2"],
      ["2025-09", "2"],
      ["2025-10", "2"],
      ["2025-11", "2"],
      ["2025-12", "2"],
      ["2026-01", "2"],
      ["2026-02", "2"],
      ["2026-03", "2"],
      ["2026-04", "2"],
      ["2026-05", "2"],
    ]);
    const may = body.data.observations.at(-1);
    expect(may.provenance).toEqual({
      sourceId: "ecb-data",
      adapter: "derive-series",
      derivation: "SERVICE_DERIVED",
      transformation: ["LEVEL_IN_FORCE_AT_PERIOD_END"],
      document: { sha256: sha256OfSample(KEY_RATES), fetchedAt: "2026-06-30T23:59:59.000Z" },
    });
    expect(may.derived.inputs).toEqual([
      {
        sourceSeriesId: "FM.B.U2.EUR.4F.KR.DFR.LEV",
        referencePeriod: "2025-06",
        sourcePeriod: "2025-06-11",
        value: "2",
        // The ECB's OBS_STATUS of that change, carried by the derived value (issue 38, item 6).
        publicationStatus: "A",
        vintage: 1,
        document: { sha256: sha256OfSample(KEY_RATES), fetchedAt: "2026-06-30T23:59:59.000Z" },
      },
    ]);
    // Nothing before the first change the service has read (July 2012), nothing by day.
    const first = await service.request(`${OBSERVATIONS}?series=ecb-deposit-facility-rate&limit=1`);
    expect(first.body.data.observations[0]).toMatchObject({ referencePeriod: "2012-07", value: "0" });
    const negative = await service.request(`${OBSERVATIONS}?series=ecb-deposit-facility-rate&from=2014-06&to=2014-09`);
    expect(negative.body.data.observations.map((row: { value: string }) => row.value)).toEqual([
      "-0.1",
      "-0.1",
      "-0.1",
      "-0.2",
    ]);
  });

  it("lists the ECB rate series as monthly, derived from the publisher's change dates", async () => {
    const { body } = await service.request("/api/v1/economics/series?region=EA&limit=100");
    const rate = body.data.series.find(
      (series: { slug: string }) => series.slug === "ecb-main-refinancing-operations-rate",
    );
    expect(rate).toMatchObject({
      frequency: "MONTHLY",
      upstreamSeriesId: null,
      derived: { inputSeries: ["FM.B.U2.EUR.4F.KR.MRR_FR.LEV"] },
    });
  });

  it("keeps Eurostat's JSON-stat digits, its imputed-value flag with its label, and its no-data position as null", async () => {
    const { body } = await service.request(
      `${OBSERVATIONS}?series=ea-industrial-production-month-on-month&from=2026-03`,
    );
    expect(
      body.data.observations.map(
        (row: { referencePeriod: string; value: string | null; publicationStatus: string | null }) => [
          row.referencePeriod,
          row.value,
          row.publicationStatus,
        ],
      ),
    ).toEqual([
      ["2026-03", "0.4", null],
      ["2026-04", "0.3", "i"],
      ["2026-05", "0.3", "i"],
      ["2026-06", "0.0", "i"],
      ["2026-07", null, null],
    ]);
    // The JSON number -1.0 stays "-1.0" (a float would have made it -1).
    const january = await service.request(`${OBSERVATIONS}?series=ea-industrial-production-month-on-month&to=2024-01`);
    expect(january.body.data.observations.map((row: { value: string }) => row.value)).toEqual(["-1.0"]);
    expect(body.data.observations[1]).toMatchObject({
      publisherNote: "value imputed by Eurostat or other receiving agencies",
      sourceUpdatedAt: "2026-09-11T09:00:00.000Z",
      provenance: {
        sourceId: "eurostat-sdmx",
        adapter: "eurostat-json-stat",
        transformation: ["JSON_NUMBER_TEXT_KEPT", "UPDATE_TIME_TO_UTC"],
      },
    });
    expect(body.data.observations[4].provenance.transformation).toEqual([
      "MISSING_MARKER_AS_NULL",
      "UPDATE_TIME_TO_UTC",
    ]);
    const unemployment = await service.request(`${OBSERVATIONS}?series=ea-unemployment-rate&from=2026-06`);
    expect(unemployment.body.data.observations.map((row: { value: string | null }) => row.value)).toEqual([
      "6.4",
      "6.4",
      null,
    ]);
  });

  it("shows current values on the releases route: the mid-2026 BLS and Eurostat figures", async () => {
    const { body } = await service.request(
      "/api/public/v1/economics/releases?series=us-unemployment-rate,us-ppi-final-demand,eu-unemployment-rate,ecb-deposit-facility-rate",
    );
    const newest = Object.fromEntries(
      body.data.releases.map(
        (release: { series: { slug: string }; referencePeriod: { code: string }; value: string }) => [
          release.series.slug,
          [release.referencePeriod.code, release.value],
        ],
      ),
    );
    expect(newest).toEqual({
      "us-unemployment-rate": ["2026-07", "4.1"],
      "us-ppi-final-demand": ["2026-07", "156.927"],
      // Eurostat lists August 2026 with no data yet: served as the newest period, null.
      "eu-unemployment-rate": ["2026-08", null],
      "ecb-deposit-facility-rate": ["2026-05", "2"],
    });
  });
});
