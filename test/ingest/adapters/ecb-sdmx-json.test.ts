import { describe, expect, it } from "vitest";
import { parseEcbSdmxJson } from "../../../cli/ingest/adapters/ecb-sdmx-json.ts";
import { UpstreamDocumentError } from "../../../cli/ingest/adapters/upstream-document-error.ts";
import { SOURCES } from "../../../cli/ingest/sources.ts";
import { sample } from "./samples.ts";

/** The recorded €STR answer (data/samples/SOURCES.md): EST, seven series, 2 to 10 January 2025, SDMX-JSON. */
const ESTR_NAME = "2026-06-24-ecb-est-estr-2025-01-02_2025-01-10.jsondata.json";
const document = sample("ecb-data", ESTR_NAME);
const observations = parseEcbSdmxJson(document);
const DAYS = ["2025-01-02", "2025-01-03", "2025-01-06", "2025-01-07", "2025-01-08", "2025-01-09", "2025-01-10"];
const of = (seriesId: string) => observations.filter((observation) => observation.seriesId === seriesId);

/** A small SDMX-JSON message in the ECB's layout, for the cases the recording does not hold. */
function message(
  observationsOfSeries: Record<string, unknown[]>,
  flowHref = "https://data-api.ecb.europa.eu:443/service/dataflow/ECB/EST/1.0",
): string {
  return JSON.stringify({
    header: { id: "x", prepared: "2026-06-25T00:28:59.246+02:00" },
    dataSets: [{ action: "Replace", series: { "0:0": { attributes: [], observations: observationsOfSeries } } }],
    structure: {
      links: [{ rel: "dataflow", href: flowHref }],
      dimensions: {
        series: [
          { id: "FREQ", values: [{ id: "B" }] },
          { id: "DATA_TYPE_EST", values: [{ id: "WT" }] },
        ],
        observation: [{ id: "TIME_PERIOD", role: "time", values: [{ id: "2025-01-30" }, { id: "2025-01-31" }] }],
      },
      attributes: {
        series: [],
        observation: [
          { id: "OBS_STATUS", values: [{ id: "A" }, { id: "P" }] },
          { id: "CONF_STATUS", values: [{ id: "F" }] },
        ],
      },
    },
  });
}

describe("ECB Data Portal SDMX-JSON (format=jsondata), on the recorded €STR answer", () => {
  it("reads every observation of the seven series, keyed like csvdata's KEY (flow from the dataflow link, then the series codes)", () => {
    // Counted in the raw bytes, independently of the parser: each observation is an array opened by `"<n>": [`.
    const cells = [...document.toString("utf8").matchAll(/"\d+": \[/g)].length;
    expect(observations).toHaveLength(cells);
    expect(observations).toHaveLength(7 * 7);
    expect([...new Set(observations.map((observation) => observation.seriesId))].sort()).toEqual(
      ["NB", "NT", "R25", "R75", "TT", "VL", "WT"].map((type) => `EST.B.EU000A2X2A25.${type}`),
    );
    for (const type of ["NB", "WT", "TT"])
      expect(of(`EST.B.EU000A2X2A25.${type}`).map((observation) => observation.referencePeriod)).toEqual(DAYS);
  });

  it("keeps the rate's digits as the JSON writes them (2.92, 2.919: never through a float), with OBS_STATUS A", () => {
    expect(of("EST.B.EU000A2X2A25.WT").map((observation) => observation.value)).toEqual([
      "2.92",
      "2.919",
      "2.917",
      "2.918",
      "2.917",
      "2.92",
      "2.917",
    ]);
    expect(of("EST.B.EU000A2X2A25.WT")[0]).toEqual({
      api: "ecb-data",
      seriesId: "EST.B.EU000A2X2A25.WT",
      referencePeriod: "2025-01-02",
      value: "2.92",
      publicationStatus: "A",
      // `prepared` is when the answer was made, not an update time of the data.
      sourceUpdatedAt: null,
      note: null,
      adapter: "ecb-sdmx-json",
      transformation: ["JSON_NUMBER_TEXT_KEPT"],
    });
    expect(of("EST.B.EU000A2X2A25.TT").map((observation) => observation.value)).toEqual([
      "59601",
      "55651",
      "53701",
      "59102",
      "59265",
      "55672",
      "56000",
    ]);
  });

  it("is what the ecb-data source reads from a JSON answer; csvdata stays csvdata", () => {
    const ecbData = SOURCES.find((source) => source.slug === "ecb-data")!;
    if (ecbData.kind !== "observations") throw new Error("ecb-data reads observations");
    expect(ecbData.parse(document)).toEqual(observations);
    expect(
      ecbData.parse(Buffer.from("KEY,TIME_PERIOD,OBS_VALUE,OBS_STATUS\nEST.B.EU000A2X2A25.WT,2025-01-31,2.916,A\n"))[0],
    ).toMatchObject({ adapter: "ecb-csvdata", value: "2.916" });
  });

  it("keeps trailing zeros, reads the status by position, and a null value as the publisher's missing value", () => {
    const read = parseEcbSdmxJson(message({ "0": [2.92, 1, 0], "1": [null, 0, 0] }).replace("2.92,", "2.920,"));
    expect(
      read.map((observation) => [
        observation.seriesId,
        observation.referencePeriod,
        observation.value,
        observation.publicationStatus,
        observation.transformation,
      ]),
    ).toEqual([
      ["EST.B.WT", "2025-01-30", "2.920", "P", ["JSON_NUMBER_TEXT_KEPT"]],
      ["EST.B.WT", "2025-01-31", null, "A", ["MISSING_MARKER_AS_NULL"]],
    ]);
  });

  it("refuses the whole document when it is not an SDMX-JSON data message it can vouch for", () => {
    const refused = (text: string, pattern: RegExp) => {
      expect(() => parseEcbSdmxJson(text)).toThrow(UpstreamDocumentError);
      expect(() => parseEcbSdmxJson(text)).toThrow(pattern);
    };
    refused("KEY,TIME_PERIOD,OBS_VALUE\n", /not JSON/);
    refused('{"header":{}}', /not an SDMX-JSON data message/);
    refused(
      message({ "0": [2.9, 0] }, "https://data-api.ecb.europa.eu/service/datastructure/ECB/ECB_EST1/1.0"),
      /dataflow/,
    );
    refused(message({ "5": [2.9, 0] }), /position 5/);
    refused(message({ "0": ["2,9", 0] }), /not a decimal number/);
    refused(message({ "0": [2.9, 7] }), /OBS_STATUS: position 7/);
  });
});
