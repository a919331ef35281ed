import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseEcbCsvdata } from "../../../cli/ingest/adapters/ecb-csvdata.ts";
import { UpstreamDocumentError } from "../../../cli/ingest/adapters/upstream-document-error.ts";

const observations = parseEcbCsvdata(
  readFileSync(new URL("../../fixtures/observations/ecb-fm-key-rates.csvdata.csv", import.meta.url)),
);
const count = (seriesId: string) => observations.filter((observation) => observation.seriesId === seriesId).length;

/** The recorded key-rate answer as recorded (test/fixtures/observations/SOURCES.md); data/samples holds it from 2012 on. */
describe("ECB Data Portal csvdata", () => {
  it("reads every row, each with its quoted, comma-holding TITLE_COMPL", () => {
    expect(observations).toHaveLength(46);
    expect([
      count("FM.B.U2.EUR.4F.KR.DFR.LEV"),
      count("FM.B.U2.EUR.4F.KR.MLFR.LEV"),
      count("FM.B.U2.EUR.4F.KR.MRR_FR.LEV"),
    ]).toEqual([28, 9, 9]);
  });

  it("reads a row field by field (line 6: …,2014-06-11,-0.1,A,F,…)", () => {
    expect(observations[4]).toEqual({
      api: "ecb-data",
      seriesId: "FM.B.U2.EUR.4F.KR.DFR.LEV",
      referencePeriod: "2014-06-11",
      value: "-0.1",
      publicationStatus: "A",
      sourceUpdatedAt: null,
      note: null,
      adapter: "ecb-csvdata",
      transformation: [],
    });
  });

  it("keeps the ECB's shortest-form values as written (line 2: 1999-01-01,2; line 29: 2026-06-17,2.25)", () => {
    expect([observations[0]!.referencePeriod, observations[0]!.value]).toEqual(["1999-01-01", "2"]);
    expect([observations[27]!.referencePeriod, observations[27]!.value]).toEqual(["2026-06-17", "2.25"]);
  });

  it("reads columns by name and SDMX NaN as no value", () => {
    const document =
      "OBS_STATUS,OBS_VALUE,TIME_PERIOD,KEY\nM,NaN,2024-01,ICP.M.U2.N.000000.4.ANR\nA,2.8,2024-Q1,MNA.Q.Y.I9.W2.S1.S1.B.B1GQ._Z._Z._Z.EUR.LR.GY\n";
    expect(
      parseEcbCsvdata(document).map((observation) => [
        observation.seriesId,
        observation.referencePeriod,
        observation.value,
        observation.publicationStatus,
        observation.transformation,
      ]),
    ).toEqual([
      ["ICP.M.U2.N.000000.4.ANR", "2024-01", null, "M", ["MISSING_MARKER_AS_NULL"]],
      ["MNA.Q.Y.I9.W2.S1.S1.B.B1GQ._Z._Z._Z.EUR.LR.GY", "2024-Q1", "2.8", "A", []],
    ]);
  });

  it("refuses a document without the columns it reads (the JSON 404 problem body, say)", () => {
    expect(() => parseEcbCsvdata('{"title":"Not Found","status":404,"detail":"No results found."}')).toThrow(
      UpstreamDocumentError,
    );
  });
});
