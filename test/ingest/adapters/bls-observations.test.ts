import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseBlsObservations } from "../../../cli/ingest/adapters/bls-observations.ts";
import { UpstreamDocumentError } from "../../../cli/ingest/adapters/upstream-document-error.ts";
import { sample } from "./samples.ts";

const parse = (name: string) => parseBlsObservations(sample("bls-api", name));
const find = (observations: ReturnType<typeof parse>, seriesId: string, period: string) =>
  observations.find((observation) => observation.seriesId === seriesId && observation.referencePeriod === period);

/** A response in the recorded shape, with rows of the test's making. */
function response(data: object[]): string {
  return JSON.stringify({
    status: "REQUEST_SUCCEEDED",
    responseTime: 1,
    message: [],
    Results: { series: [{ seriesID: "CUUR0000SA0", data }] },
  });
}
const row = (period: string, value = "300.1", footnotes: object[] = [{}]) => ({
  year: "2024",
  period,
  periodName: "",
  value,
  footnotes,
});

describe("BLS Public Data API v2", () => {
  it("reads every monthly row of each recorded response", () => {
    expect(parse("bls-cpi-cusr0000sa0.json")).toHaveLength(3);
    expect(parse("bls-cpi-cuur0000sa0.json")).toHaveLength(29);
    expect(parse("bls-ap-flour-catalog-calculations.json")).toHaveLength(12);
    expect(parse("bls-ces-lns-2016.results.json")).toHaveLength(51);
  });

  it("reads a row field by field (bls-cpi-cusr0000sa0.json, lines 10-17)", () => {
    expect(parse("bls-cpi-cusr0000sa0.json")[0]).toEqual({
      api: "bls-api",
      seriesId: "CUSR0000SA0",
      referencePeriod: "2021-09",
      value: "274.138",
      publicationStatus: null,
      sourceUpdatedAt: null,
      note: null,
      adapter: "bls-timeseries-json",
      transformation: ["PERIOD_CODE_REWRITTEN"],
    });
  });

  it("keeps the value text exactly and the footnote code P (bls-ces-lns-2016.results.json, line 1)", () => {
    const ces = parse("bls-ces-lns-2016.results.json");
    expect(find(ces, "LNS14000000", "2016-04")?.value).toBe("5.0");
    expect(find(ces, "CES0500000003", "2015-02")?.value).toBe("24.80");
    expect(find(ces, "CES0000000001", "2016-05")).toMatchObject({ value: "143894", publicationStatus: "P" });
    expect(find(ces, "CES0000000001", "2016-03")?.publicationStatus).toBeNull();
    expect(ces.filter((observation) => observation.publicationStatus === "P")).toHaveLength(4);
  });

  it("leaves out the annual average: the no-data response holds only an M13 row and yields nothing", () => {
    expect(parse("bls-cpi-cuur0000sa0-annual-nodata.json")).toEqual([]);
  });

  it("maps quarters and annual periods, and reads a missing value as null", () => {
    const observations = parseBlsObservations(
      response([
        row("Q01"),
        row("Q05"),
        row("A01"),
        row("M12", "-"),
        row("M11", "", [{ code: "P", text: "preliminary" }, { code: "R" }]),
      ]),
    );
    expect(
      observations.map((observation) => [
        observation.referencePeriod,
        observation.value,
        observation.publicationStatus,
      ]),
    ).toEqual([
      ["2024-Q1", "300.1", null],
      ["2024", "300.1", null],
      ["2024-12", null, null],
      ["2024-11", null, "P,R"],
    ]);
  });

  it("throws on REQUEST_NOT_PROCESSED inside an HTTP 200", () => {
    // The daily-quota answer as quoted in keberwein/blscrapeR issue #40.
    const quota =
      '{"status":"REQUEST_NOT_PROCESSED","message":["Request could not be serviced, as the daily threshold for total number of requests allocated to the user with registration key  has been reached."],"Results":{}}';
    expect(() => parseBlsObservations(quota)).toThrow(UpstreamDocumentError);
    try {
      parseBlsObservations(quota);
    } catch (error) {
      expect((error as UpstreamDocumentError).reason).toBe("rejected-by-publisher");
      expect((error as Error).message).toContain("daily threshold");
    }
  });

  it("refuses what it cannot read rather than guessing", () => {
    const malformed = (document: string) => {
      try {
        parseBlsObservations(document);
      } catch (error) {
        return (error as UpstreamDocumentError).reason;
      }
      return "accepted";
    };
    expect(malformed("<html>")).toBe("malformed");
    expect(malformed('{"status":"REQUEST_SUCCEEDED","Results":{}}')).toBe("malformed");
    expect(malformed(response([row("S01")]))).toBe("malformed");
    expect(malformed(response([row("M05", "n/a")]))).toBe("malformed");
  });
});

describe("BLS answers recorded in 2026 (test/fixtures/observations/SOURCES.md)", () => {
  const fixture = (name: string) => readFileSync(new URL(`../../fixtures/observations/${name}`, import.meta.url));

  it("reads the October 2025 gap ('-' with footnote X) as null with the footnote's code and text", () => {
    const observations = parseBlsObservations(fixture("bls-api-v2-cuur0000segc-2024-01_2026-08.json"));
    expect(find(observations, "CUUR0000SEGC", "2025-10")).toMatchObject({
      value: null,
      publicationStatus: "X",
      note: "Data unavailable due to the 2025 lapse in appropriations",
      transformation: ["PERIOD_CODE_REWRITTEN", "MISSING_MARKER_AS_NULL"],
    });
    expect(observations.filter((observation) => observation.value === null)).toHaveLength(1);
  });

  it.each([
    ["bls-api-v2-invalid-key.json", /REQUEST_NOT_PROCESSED/],
    ["bls-api-invalid-series.json", /Invalid Series for Series NOTASERIES1/],
    ["bls-api-empty-results.json", /no series/],
  ])("refuses %s, a failure inside HTTP 200, as the publisher saying no", (name, message) => {
    try {
      parseBlsObservations(fixture(name));
      expect.unreachable();
    } catch (error) {
      expect((error as UpstreamDocumentError).reason).toBe("rejected-by-publisher");
      expect((error as Error).message).toMatch(message);
    }
  });
});
