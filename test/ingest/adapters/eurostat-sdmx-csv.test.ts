import { describe, expect, it } from "vitest";
import { parseEurostatSdmxCsv } from "../../../cli/ingest/adapters/eurostat-sdmx-csv.ts";
import { UpstreamDocumentError } from "../../../cli/ingest/adapters/upstream-document-error.ts";
import { sample } from "./samples.ts";

const observations = parseEurostatSdmxCsv(sample("eurostat-sdmx", "eurostat-une_rt_m.sdmx.csv"));
const HEADER = "DATAFLOW,LAST UPDATE,freq,s_adj,age,unit,sex,geo,TIME_PERIOD,OBS_VALUE,OBS_FLAG,CONF_STATUS";

describe("Eurostat SDMX-CSV", () => {
  it("reads every row", () => {
    expect(observations).toHaveLength(40);
  });

  it("reads a row field by field (line 7: …,F,AT,1994-06,5.0,,)", () => {
    expect(observations[5]).toEqual({
      api: "eurostat-sdmx",
      seriesId: "une_rt_m.M.NSA.TOTAL.PC_ACT.F.AT",
      referencePeriod: "1994-06",
      value: "5.0",
      publicationStatus: null,
      // "04/05/26 11:00:00" is 4 May 2026, 11:00 in Brussels (CEST).
      sourceUpdatedAt: "2026-05-04T09:00:00.000Z",
      note: null,
      adapter: "eurostat-sdmx-csv",
      transformation: ["UPDATE_TIME_TO_UTC"],
    });
  });

  it("keeps values as text and flags as written", () => {
    // Line 8: …,F,AT,2004-01,6.3,b,
    expect(observations[6]).toMatchObject({ referencePeriod: "2004-01", value: "6.3", publicationStatus: "b" });
    // Line 20: …,F,US,2025-01,4.0,,   line 31: …,Y_LT25,PC_ACT,T,LU,2023-11,23.0,,
    expect(observations.find((observation) => observation.seriesId === "une_rt_m.M.NSA.TOTAL.PC_ACT.F.US")?.value).toBe(
      "4.0",
    );
    expect(
      observations.find((observation) => observation.seriesId === "une_rt_m.M.NSA.Y_LT25.PC_ACT.T.LU")?.value,
    ).toBe("23.0");
    expect(
      observations.find((observation) => observation.seriesId === "une_rt_m.M.SA.TOTAL.PC_ACT.F.EA21")?.referencePeriod,
    ).toBe("2004-07");
  });

  const csv = (transformation: string[]) => ({ note: null, adapter: "eurostat-sdmx-csv", transformation });

  it("handles quoting, CRLF, reordered columns, empty values, confidentiality and other period kinds", () => {
    const document = [
      "DATAFLOW,LAST UPDATE,freq,unit,geo,TIME_PERIOD,CONF_STATUS,OBS_FLAG,OBS_VALUE",
      'ESTAT:NAMQ_10_GDP(1.0),"22/09/26 23:00:00",Q,"CLV,PCH","EA""20""",2023-Q2,,p,0.10',
      "ESTAT:NAMQ_10_GDP(1.0),22/09/26 23:00:00,Q,PCH,EA20,2023-Q3,C,,",
      "ESTAT:NAMA_10_GDP(1.0),15/01/26 11:00:00,A,PCH,EA20,2023,,,0.4",
      "",
    ].join("\r\n");
    expect(parseEurostatSdmxCsv(document)).toEqual([
      {
        api: "eurostat-sdmx",
        seriesId: 'namq_10_gdp.Q.CLV,PCH.EA"20"',
        referencePeriod: "2023-Q2",
        value: "0.10",
        publicationStatus: "p",
        sourceUpdatedAt: "2026-09-22T21:00:00.000Z",
        ...csv(["UPDATE_TIME_TO_UTC"]),
      },
      {
        api: "eurostat-sdmx",
        seriesId: "namq_10_gdp.Q.PCH.EA20",
        referencePeriod: "2023-Q3",
        value: null,
        publicationStatus: "|C",
        sourceUpdatedAt: "2026-09-22T21:00:00.000Z",
        ...csv(["MISSING_MARKER_AS_NULL", "UPDATE_TIME_TO_UTC"]),
      },
      // January: CET, so 11:00 local is 10:00Z.
      {
        api: "eurostat-sdmx",
        seriesId: "nama_10_gdp.A.PCH.EA20",
        referencePeriod: "2023",
        value: "0.4",
        publicationStatus: null,
        sourceUpdatedAt: "2026-01-15T10:00:00.000Z",
        ...csv(["UPDATE_TIME_TO_UTC"]),
      },
    ]);
  });

  it("refuses a document it cannot read", () => {
    expect(() => parseEurostatSdmxCsv("freq,geo,OBS_VALUE\nM,DE,5.0\n")).toThrow(UpstreamDocumentError);
    expect(() =>
      parseEurostatSdmxCsv(`${HEADER}\nESTAT:UNE_RT_M(1.0),04/05/26 11:00:00,M,SA,TOTAL,PC_ACT,T,DE,2023-W05,5.0,,\n`),
    ).toThrow(/TIME_PERIOD/);
    expect(() =>
      parseEurostatSdmxCsv(`${HEADER}\nESTAT:UNE_RT_M(1.0),04/05/26 11:00:00,M,SA,TOTAL,PC_ACT,T,DE,2023-05,":",,\n`),
    ).toThrow(/not a decimal/);
    expect(() => parseEurostatSdmxCsv(`${HEADER}\nESTAT:UNE_RT_M(1.0),"04/05/26 11:00:00,M\n`)).toThrow(/never closed/);
    expect(() =>
      parseEurostatSdmxCsv(`${HEADER}\nESTAT:UNE_RT_M(1.0),04/05/26 11:00:00,M,SA,DE,2023-05,5.0,,\n`),
    ).toThrow(/fields/);
  });
});
