import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeCursor } from "../../server/http/params.ts";
import {
  edgeCaseDataDir,
  removeEconomicsDataDirs,
  SAMPLE_INGESTED_AT,
  sampleDataDir,
} from "../support/economics-index.ts";
import { type RunningService, startService } from "../support/service.ts";
import { EDGE_RUNS, LONG_SERIES, longSeriesPeriod } from "../support/synthetic-economics-corpora.ts";

afterAll(removeEconomicsDataDirs);

type Observation = {
  referencePeriod: string;
  value: string | null;
  revisionCount: number;
  isRevision: boolean;
  previousValue: string | null;
};

const OBSERVATIONS = "/api/public/v1/economics/observations";
const periods = (body: any): string[] => body.data.observations.map((row: Observation) => row.referencePeriod);
const allLongPeriods = Array.from({ length: LONG_SERIES.count }, (_, index) => longSeriesPeriod(index));

describe("GET /api/public/v1/economics/observations over the sample archive", () => {
  let service: RunningService;
  const observations = (query: string) => service.request(`${OBSERVATIONS}?${query}`);

  beforeAll(async () => {
    service = await startService({ seedDataDir: await sampleDataDir() });
  });
  afterAll(() => service.close());

  it("serves one series oldest first, with the values exactly as published, publicly cacheable for 600 s", async () => {
    const { status, body, headers } = await observations("series=us-cpi-all-items-nsa");
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("public, max-age=600");
    expect(headers.get("etag")).toMatch(/^W\//);
    expect(body.data.series).toMatchObject({ slug: "us-cpi-all-items-nsa", upstreamSeriesId: "CUUR0000SA0" });
    // The two recordings holding CUUR0000SA0 (2022-01..2024-05 and 2025-07..2026-07); BLS's "-" of October 2025 is null.
    const published = ["bls-cpi-cuur0000sa0.json", "bls-v1-5series-2025-07_2026-07-captured-2026-08-24.json"]
      .flatMap((name) => {
        const sample = JSON.parse(readFileSync(new URL(`../../data/samples/bls-api/${name}`, import.meta.url), "utf8"));
        return (sample.Results.series[0].data as { year: string; period: string; value: string }[])
          .filter((row) => row.period !== "M13")
          .map((row) => [`${row.year}-${row.period.slice(1)}`, row.value === "-" ? null : row.value]);
      })
      .sort(([a], [b]) => a!.localeCompare(b!));
    expect(body.data.observations.map((row: Observation) => [row.referencePeriod, row.value])).toEqual(published);
    expect(body.data.observations[0]).toMatchObject({
      revisionCount: 0,
      isRevision: false,
      previousValue: null,
      ingestedAt: SAMPLE_INGESTED_AT,
    });
    expect(body.meta).toMatchObject({
      lastIngestedAt: SAMPLE_INGESTED_AT,
      lastSuccessfulIngestionAt: SAMPLE_INGESTED_AT,
      dataUpdatedAt: SAMPLE_INGESTED_AT,
      dataStatus: "fresh",
      nextCursor: null,
    });
  });

  it("compares from/to as period-code strings", async () => {
    expect(periods((await observations("series=us-cpi-all-items-nsa&from=2023-01&to=2023-06")).body)).toEqual([
      "2023-01",
      "2023-02",
      "2023-03",
      "2023-04",
      "2023-05",
      "2023-06",
    ]);
    expect(periods((await observations("series=us-cpi-all-items-nsa&from=2024&to=2024-12")).body)).toEqual([
      "2024-01",
      "2024-02",
      "2024-03",
      "2024-04",
      "2024-05",
    ]);
    expect(periods((await observations("series=us-cpi-all-items-nsa&from=2022-11&to=2023")).body)).toEqual([
      "2022-11",
      "2022-12",
    ]);
    // The ECB rates are served by month (the rate in force at month end), never by the ECB's dates of change.
    const rates = await observations("series=ecb-deposit-facility-rate&from=2024-01&to=2024-12");
    expect(periods(rates.body)).toEqual(
      Array.from({ length: 12 }, (_, month) => `2024-${String(month + 1).padStart(2, "0")}`),
    );
  });

  it("answers an unknown series with 404, a missing one with 400, and a registered series with nothing ingested with 503", async () => {
    const unknown = await observations("series=no-such-series");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("NOT_FOUND");
    const missing = await service.request(OBSERVATIONS);
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe("VALIDATION_FAILED");
    for (const slug of ["us-jolts-job-openings", "ea-hicp-all-items-annual-rate"]) {
      const empty = await observations(`series=${slug}`);
      expect(empty.status, slug).toBe(503);
      expect(empty.body.error.code).toBe("SERVICE_UNAVAILABLE");
      expect(empty.headers.get("retry-after")).toMatch(/^[0-9]+$/);
    }
  });

  it("serves the derived series like any other", async () => {
    const { body } = await observations("series=us-cpi-all-items-12-month-change&to=2023-01");
    expect(body.data.observations).toEqual([expect.objectContaining({ referencePeriod: "2023-01", value: "6.4" })]);
  });
});

describe("GET /api/public/v1/economics/observations over a synthetic index", () => {
  let service: RunningService;
  const observations = (query: string) => service.request(`${OBSERVATIONS}?${query}`);

  beforeAll(async () => {
    service = await startService({ seedDataDir: await edgeCaseDataDir() });
  });
  afterAll(() => service.close());

  it("pages with a default of 100, clamps at 365 and round-trips cursors", async () => {
    const first = await observations(`series=${LONG_SERIES.slug}`);
    expect(periods(first.body)).toEqual(allLongPeriods.slice(0, 100));
    expect(first.body.meta.nextCursor).toEqual(expect.any(String));
    const clamped = await observations(`series=${LONG_SERIES.slug}&limit=1000`);
    expect(periods(clamped.body)).toEqual(allLongPeriods.slice(0, 365));
    const rest = await observations(`series=${LONG_SERIES.slug}&limit=1000&cursor=${clamped.body.meta.nextCursor}`);
    expect(periods(rest.body)).toEqual(allLongPeriods.slice(365));
    expect(rest.body.meta.nextCursor).toBeNull();
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const response: { body: any } = await observations(
        `series=${LONG_SERIES.slug}&limit=150${cursor ? `&cursor=${cursor}` : ""}`,
      );
      paged.push(...periods(response.body));
      cursor = response.body.meta.nextCursor;
    } while (cursor !== null);
    expect(paged).toEqual(allLongPeriods);
  });

  it("refuses bad limits and cursors; a cursor past the end gives an empty page", async () => {
    for (const query of [
      "limit=0",
      "limit=-1",
      "limit=x",
      "cursor=???",
      `cursor=${Buffer.from("o:01").toString("base64url")}`,
    ]) {
      const { status, body } = await observations(`series=${LONG_SERIES.slug}&${query}`);
      expect(status, query).toBe(400);
      expect(body.error.code).toBe("VALIDATION_FAILED");
    }
    const past = await observations(`series=${LONG_SERIES.slug}&cursor=${encodeCursor(9999)}`);
    expect(past.status).toBe(200);
    expect(past.body.data.observations).toEqual([]);
    expect(past.body.meta.nextCursor).toBeNull();
  });

  it("filters quarterly periods as strings", async () => {
    expect(periods((await observations("series=ea-real-gdp-quarter-on-quarter&from=2024-Q3&to=2025-Q2")).body)).toEqual(
      ["2024-Q3", "2024-Q4", "2025-Q1", "2025-Q2"],
    );
    const inverted = await observations("series=ea-real-gdp-quarter-on-quarter&from=2025-Q2&to=2024-Q3");
    expect(inverted.status).toBe(200);
    expect(inverted.body.data.observations).toEqual([]);
  });

  it("serves only the current vintage of each period with revisionCount, isRevision and previousValue", async () => {
    const { body } = await observations("series=ea-unemployment-rate");
    expect(body.data.observations).toEqual([
      expect.objectContaining({
        referencePeriod: "2025-12",
        value: "6.3",
        revisionCount: 0,
        isRevision: false,
        previousValue: null,
        ingestedAt: EDGE_RUNS.first,
      }),
      expect.objectContaining({
        referencePeriod: "2026-01",
        value: "6.0",
        revisionCount: 2,
        isRevision: true,
        previousValue: "6.1",
        ingestedAt: EDGE_RUNS.third,
      }),
    ]);
    const payrolls = await observations("series=us-nonfarm-payroll-employment");
    expect(payrolls.body.data.observations).toEqual([
      expect.objectContaining({
        referencePeriod: "2026-01",
        value: "159000",
        publicationStatus: null,
        revisionCount: 1,
        isRevision: true,
        previousValue: "159000",
      }),
    ]);
  });
});
