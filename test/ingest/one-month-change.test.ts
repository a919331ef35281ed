import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deriveValues, type InputVintage } from "../../cli/ingest/derive-series.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { SAMPLES_DIR } from "./cli-process.ts";

/**
 * The 1-month percent change (PERCENT_CHANGE_PREVIOUS_PERIOD), the CPI release's first headline figure, checked against
 * BLS's own arithmetic: the real answer in data/samples/bls-api/bls-ap-flour-catalog-calculations.json carries, beside
 * each published value, the 1-month percent change BLS computed (`calculations.pct_changes["1"]`); and the CPI-U SA
 * answer of September 2021 gives the changes BLS published for August and September 2021 (0.3 and 0.4).
 */

interface BlsRow {
  year: string;
  period: string;
  value: string;
  calculations?: { pct_changes: Record<string, string> };
}
const rowsOf = (name: string): BlsRow[] =>
  JSON.parse(readFileSync(join(SAMPLES_DIR, "bls-api", name), "utf8")).Results.series[0].data;
const inputsOf = (rows: BlsRow[]): InputVintage[] =>
  rows
    .map((row) => ({
      referencePeriod: `${row.year}-${row.period.slice(1)}`,
      value: row.value,
      publicationStatus: null,
      note: null,
      sequence: 1,
      documentSha256: null,
      documentFetchedAt: null,
    }))
    .sort((a, b) => a.referencePeriod.localeCompare(b.referencePeriod));

const registry = readRegistrySources(new Date("2026-11-21T00:00:00Z"));
const RULE = registry.series.find((series) => series.slug === "us-cpi-all-items-1-month-change-sa")!.derived!;

describe("the 1-month percent change, as BLS computes it", () => {
  it("is the CPI release's first headline series, then the 12-month change", () => {
    expect(
      registry.releases.find((release) => release.slug === "bls-consumer-price-index")!.headlineSeriesSlugs,
    ).toEqual(["us-cpi-all-items-1-month-change-sa", "us-cpi-all-items-12-month-change"]);
    expect(RULE).toMatchObject({ kind: "PERCENT_CHANGE_PREVIOUS_PERIOD", inputSeriesSlug: "us-cpi-all-items-sa" });
  });

  it("equals BLS's own 1-month percent changes of the flour price series, month by month", () => {
    const rows = rowsOf("bls-ap-flour-catalog-calculations.json");
    const derived = deriveValues(RULE, "BLS", "APU0000701111", inputsOf(rows), "2024-08-19T00:00:00.000Z");
    const published = new Map(
      rows.map((row) => [`${row.year}-${row.period.slice(1)}`, row.calculations!.pct_changes["1"]]),
    );
    expect(derived).toHaveLength(rows.length - 1);
    for (const month of derived) expect(month.value, month.referencePeriod).toBe(published.get(month.referencePeriod));
  });

  it("gives the CPI-U SA changes BLS published for August and September 2021", () => {
    const derived = deriveValues(
      RULE,
      "BLS",
      "CUSR0000SA0",
      inputsOf(rowsOf("bls-cpi-cusr0000sa0.json")),
      "2021-09-22",
    );
    expect(derived.map((month) => [month.referencePeriod, month.value])).toEqual([
      ["2021-08", "0.3"],
      ["2021-09", "0.4"],
    ]);
  });
});
