import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseEurostatJsonStat } from "../../../cli/ingest/adapters/eurostat-json-stat.ts";
import { UpstreamDocumentError } from "../../../cli/ingest/adapters/upstream-document-error.ts";
import { sample } from "./samples.ts";

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/observations/${name}`, import.meta.url));
const production = parseEurostatJsonStat(
  sample("eurostat-sdmx", "eurostat-sts_inpr_m-eu27-ea21-2024-01_2026-07-captured-2026-09-12.jsonstat.json"),
);
const unemployment = parseEurostatJsonStat(
  sample("eurostat-sdmx", "eurostat-une_rt_m-eu27-ea21-2024-01_2026-08-captured-2026-09-12.jsonstat.json"),
);
const find = (observations: ReturnType<typeof parseEurostatJsonStat>, seriesId: string, period: string) =>
  observations.find((observation) => observation.seriesId === seriesId && observation.referencePeriod === period);

describe("Eurostat Statistics API (JSON-stat 2.0)", () => {
  it("reads every cell of the grid, row-major over id/size, with the dataset.key series ids of SDMX-CSV", () => {
    expect(production).toHaveLength(2 * 31);
    expect(unemployment).toHaveLength(2 * 32);
    expect(new Set(unemployment.map((observation) => observation.seriesId))).toEqual(
      new Set(["une_rt_m.M.SA.TOTAL.PC_ACT.T.EU27_2020", "une_rt_m.M.SA.TOTAL.PC_ACT.T.EA21"]),
    );
  });

  it("keeps each value's digits as written in the JSON (value keys out of order; 6.0 stays 6.0)", () => {
    expect(find(unemployment, "une_rt_m.M.SA.TOTAL.PC_ACT.T.EU27_2020", "2024-03")).toEqual({
      api: "eurostat-sdmx",
      seriesId: "une_rt_m.M.SA.TOTAL.PC_ACT.T.EU27_2020",
      referencePeriod: "2024-03",
      value: "6.0",
      publicationStatus: null,
      // updated "2026-09-04T23:00:00+0200"
      sourceUpdatedAt: "2026-09-04T21:00:00.000Z",
      note: null,
      adapter: "eurostat-json-stat",
      transformation: ["JSON_NUMBER_TEXT_KEPT", "UPDATE_TIME_TO_UTC"],
    });
    expect(find(production, "sts_inpr_m.M.PRD.B-D.SCA.PCH_PRE.EA21", "2024-01")?.value).toBe("-1.0");
  });

  it("gives the imputed-value status with its label, and a no-data position as null", () => {
    expect(find(production, "sts_inpr_m.M.PRD.B-D.SCA.PCH_PRE.EA21", "2026-06")).toMatchObject({
      value: "0.0",
      publicationStatus: "i",
      note: "value imputed by Eurostat or other receiving agencies",
    });
    expect(find(production, "sts_inpr_m.M.PRD.B-D.SCA.PCH_PRE.EA21", "2026-07")).toMatchObject({
      value: null,
      publicationStatus: null,
      transformation: ["MISSING_MARKER_AS_NULL", "UPDATE_TIME_TO_UTC"],
    });
    expect(find(unemployment, "une_rt_m.M.SA.TOTAL.PC_ACT.T.EA21", "2026-08")?.value).toBeNull();
  });

  it("reads a wholly confidential answer as null cells with status |C (never a number, never nothing)", () => {
    const confidential = parseEurostatJsonStat(fixture("eurostat-sts_inpr_m-ie-confidential.jsonstat.json"));
    expect(confidential).toHaveLength(6);
    expect(
      confidential.every(
        (observation) =>
          observation.value === null && observation.publicationStatus === "|C" && observation.note === "|confidential",
      ),
    ).toBe(true);
    expect(
      parseEurostatJsonStat(fixture("eurostat-une_rt_m-de.jsonstat.json")).filter(
        (observation) => observation.value !== null,
      ),
    ).toHaveLength(31);
  });

  it("refuses what is not a JSON-stat dataset", () => {
    expect(() => parseEurostatJsonStat("DATAFLOW,LAST UPDATE\n")).toThrow(UpstreamDocumentError);
    expect(() => parseEurostatJsonStat('{"class":"collection"}')).toThrow(UpstreamDocumentError);
    expect(() => parseEurostatJsonStat('{"class":"dataset","id":["geo"],"size":[1],"dimension":{}}')).toThrow(
      /time dimension/,
    );
  });
});
