import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeCursor } from "../../server/http/params.ts";
import { edgeCaseDataDir, removeEconomicsDataDirs, sampleDataDir } from "../support/economics-index.ts";
import { credentialedClient } from "../support/economics-requests.ts";
import { operationsOf } from "../support/openapi-operations.ts";
import { type RunningService, startService } from "../support/service.ts";
import { EDGE_RUNS, LONG_SERIES, longSeriesPeriod } from "../support/synthetic-economics-corpora.ts";

afterAll(removeEconomicsDataDirs);

type Observation = {
  referencePeriod: string;
  value: string | null;
  revisionCount: number;
  isRevision: boolean;
  previousValue: string | null;
  publicationStatus: string | null;
  ingestedAt: string;
};

const periods = (body: any): string[] => body.data.observations.map((row: Observation) => row.referencePeriod);
const path = (slug: string, query = "") => `/api/v1/economics/series/${slug}/observations${query ? `?${query}` : ""}`;

describe("GET /api/v1/economics/series/{slug}/observations over a synthetic index", () => {
  let service: RunningService;
  let get: ReturnType<typeof credentialedClient>;

  beforeAll(async () => {
    service = await startService({ seedDataDir: await edgeCaseDataDir() });
    get = credentialedClient(service);
  });
  afterAll(() => service.close());

  it("needs a credential with economics:read", async () => {
    const anonymous = await service.request(path("us-cpi-all-items-nsa"));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe("UNAUTHORIZED");
    const weatherOnly = await credentialedClient(service, ["weather:read"])(path("us-cpi-all-items-nsa"));
    expect(weatherOnly.status).toBe(403);
    expect(weatherOnly.body.error.code).toBe("FORBIDDEN");
    const { status, headers } = await get(path("us-cpi-all-items-nsa"));
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("no-store");
    const head = await get(path("us-cpi-all-items-nsa"), { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
  });

  it("answers an unknown slug with 404 NOT_FOUND", async () => {
    for (const slug of ["no-such-series", "US-CPI-ALL-ITEMS-NSA", "us_cpi"]) {
      const { status, body } = await get(path(slug));
      expect(status, slug).toBe(404);
      expect(body.error.code).toBe("NOT_FOUND");
    }
  });

  it("returns the series definition and its periods oldest first with the freshness meta", async () => {
    const { body } = await get(path("us-cpi-all-items-nsa"));
    expect(body.data.series).toMatchObject({
      slug: "us-cpi-all-items-nsa",
      upstreamSeriesId: "CUUR0000SA0",
      publisher: "BLS",
      country: "US",
      frequency: "MONTHLY",
    });
    // Synthetic observations come with no archived document, and say so.
    const provenance = {
      sourceId: "bls-api",
      adapter: "synthetic-bls-api",
      derivation: "PUBLISHER_VALUE",
      transformation: [],
      document: null,
    };
    const unrevised = {
      publicationStatus: null,
      publisherNote: null,
      revisionCount: 0,
      isRevision: false,
      previousValue: null,
      sourceUpdatedAt: null,
      provenance,
    };
    expect(body.data.observations).toEqual([
      { referencePeriod: "2025-01", value: "317.671", ...unrevised, ingestedAt: EDGE_RUNS.first },
      { referencePeriod: "2025-02", value: "319.082", ...unrevised, ingestedAt: EDGE_RUNS.first },
      { referencePeriod: "2026-01", value: "325.252", ...unrevised, ingestedAt: EDGE_RUNS.first },
      { referencePeriod: "2026-02", value: "326.000", ...unrevised, ingestedAt: EDGE_RUNS.second },
    ]);
    expect(body.meta).toMatchObject({
      lastIngestedAt: EDGE_RUNS.third,
      lastSuccessfulIngestionAt: EDGE_RUNS.second,
      dataUpdatedAt: EDGE_RUNS.third,
      nextCursor: null,
    });
    expect(body.meta).not.toHaveProperty("dataStatus");
  });

  it("serves only the current vintage with its revision fields after later vintages", async () => {
    const { body } = await get(path("ea-unemployment-rate"));
    expect(body.data.observations).toEqual([
      expect.objectContaining({
        referencePeriod: "2025-12",
        value: "6.3",
        revisionCount: 0,
        isRevision: false,
        previousValue: null,
      }),
      // 6.2 (first run), 6.1 (second), 6.0 (third): two vintages beyond the first, replacing 6.1.
      expect.objectContaining({
        referencePeriod: "2026-01",
        value: "6.0",
        revisionCount: 2,
        isRevision: true,
        previousValue: "6.1",
        ingestedAt: EDGE_RUNS.third,
      }),
    ]);
    // A publication-status change at the same number is a revision.
    const payrolls = await get(path("us-nonfarm-payroll-employment"));
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
    // A formatting-only change ("4.2" then "4.20") is not.
    const long = await get(path(LONG_SERIES.slug, `from=${LONG_SERIES.last}`));
    expect(long.body.data.observations).toEqual([
      expect.objectContaining({
        referencePeriod: LONG_SERIES.last,
        value: "4.2",
        revisionCount: 0,
        isRevision: false,
        previousValue: null,
        ingestedAt: EDGE_RUNS.first,
      }),
    ]);
  });

  it("pages with a default of 100, clamps at 500, and round-trips cursors", async () => {
    const first = await get(path(LONG_SERIES.slug));
    expect(periods(first.body)).toEqual(Array.from({ length: 100 }, (_, index) => longSeriesPeriod(index)));
    expect(first.body.meta.nextCursor).toEqual(expect.any(String));
    const clamped = await get(path(LONG_SERIES.slug, "limit=10000"));
    expect(clamped.body.data.observations).toHaveLength(500);
    const rest = await get(path(LONG_SERIES.slug, `limit=10000&cursor=${clamped.body.meta.nextCursor}`));
    expect(rest.body.data.observations).toHaveLength(LONG_SERIES.count - 500);
    expect(rest.body.meta.nextCursor).toBeNull();
    expect([...periods(clamped.body), ...periods(rest.body)]).toEqual(
      Array.from({ length: LONG_SERIES.count }, (_, index) => longSeriesPeriod(index)),
    );

    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const response: { body: any } = await get(
        path(LONG_SERIES.slug, `limit=200${cursor ? `&cursor=${cursor}` : ""}`),
      );
      paged.push(...periods(response.body));
      cursor = response.body.meta.nextCursor;
    } while (cursor !== null);
    expect(paged).toEqual([...periods(clamped.body), ...periods(rest.body)]);
  });

  it("clamps asOf and vintages=all pages at 365 periods (as the public route) and the current listing at 500, as its OpenAPI parameter says", async () => {
    const allPeriods = Array.from({ length: LONG_SERIES.count }, (_, index) => longSeriesPeriod(index));
    const asOf = await get(path(LONG_SERIES.slug, "asOf=2030-01-01&limit=10000"));
    expect(periods(asOf.body)).toEqual(allPeriods.slice(0, 365));
    const asOfRest = await get(
      path(LONG_SERIES.slug, `asOf=2030-01-01&limit=10000&cursor=${asOf.body.meta.nextCursor}`),
    );
    expect(periods(asOfRest.body)).toEqual(allPeriods.slice(365));
    const everyVintage = await get(path(LONG_SERIES.slug, "vintages=all&limit=10000"));
    expect(everyVintage.body.data.periods.map((period: { referencePeriod: string }) => period.referencePeriod)).toEqual(
      allPeriods.slice(0, 365),
    );
    expect(everyVintage.body.meta.nextCursor).toEqual(expect.any(String));
    expect(periods((await get(path(LONG_SERIES.slug, "limit=10000"))).body)).toHaveLength(500);

    const document = (await service.request("/api/v1/openapi.json")).body;
    const limit = operationsOf(document)
      .find((operation) => operation.path === "/api/v1/economics/series/{slug}/observations")!
      .parameters.find((parameter) => parameter.name === "limit")!;
    expect(limit.description).toMatch(
      /default 100, clamped to 500\b.*With asOf or vintages=all it is clamped to 365 instead/,
    );
  });

  it("refuses bad limits and cursors and answers past the end with an empty page", async () => {
    for (const query of [
      "limit=0",
      "limit=-3",
      "limit=many",
      "cursor=***",
      `cursor=${Buffer.from("offset 5").toString("base64url")}`,
    ]) {
      const { status, body } = await get(path(LONG_SERIES.slug, query));
      expect(status, query).toBe(400);
      expect(body.error.code).toBe("VALIDATION_FAILED");
    }
    const past = await get(path(LONG_SERIES.slug, `cursor=${encodeCursor(LONG_SERIES.count)}`));
    expect(past.status).toBe(200);
    expect(past.body.data.observations).toEqual([]);
    expect(past.body.meta.nextCursor).toBeNull();
  });

  it("selects a period range with from/to compared as strings", async () => {
    expect(periods((await get(path(LONG_SERIES.slug, "from=2000-01&to=2000-06"))).body)).toEqual([
      "2000-01",
      "2000-02",
      "2000-03",
      "2000-04",
      "2000-05",
      "2000-06",
    ]);
    // As strings, "2000" sorts before "2000-01": from=2000 starts at 2000-01 and to=2000 ends at 1999-12.
    expect(periods((await get(path(LONG_SERIES.slug, "from=2000&limit=2"))).body)).toEqual(["2000-01", "2000-02"]);
    expect(periods((await get(path(LONG_SERIES.slug, "from=1999-11&to=2000"))).body)).toEqual(["1999-11", "1999-12"]);
    expect(periods((await get(path("ea-real-gdp-quarter-on-quarter", "from=2024-Q3&to=2025-Q2"))).body)).toEqual([
      "2024-Q3",
      "2024-Q4",
      "2025-Q1",
      "2025-Q2",
    ]);
    const inverted = await get(path(LONG_SERIES.slug, "from=2001-01&to=2000-01"));
    expect(inverted.status).toBe(200);
    expect(inverted.body.data.observations).toEqual([]);
  });
});

describe("GET /api/v1/economics/series/{slug}/observations over the sample archive", () => {
  let service: RunningService;
  let get: ReturnType<typeof credentialedClient>;

  beforeAll(async () => {
    service = await startService({ seedDataDir: await sampleDataDir() });
    get = credentialedClient(service);
  });
  afterAll(() => service.close());

  it("serves the published decimal strings exactly as the BLS sample has them", async () => {
    const published = new Map<string, string | null>();
    for (const name of ["bls-cpi-cuur0000sa0.json", "bls-v1-5series-2025-07_2026-07-captured-2026-08-24.json"]) {
      const sample = JSON.parse(readFileSync(new URL(`../../data/samples/bls-api/${name}`, import.meta.url), "utf8"));
      for (const row of sample.Results.series[0].data as { year: string; period: string; value: string }[]) {
        // BLS's "-" (the October 2025 gap) is served as null, with its footnote.
        if (/^M(0[1-9]|1[0-2])$/.test(row.period))
          published.set(`${row.year}-${row.period.slice(1)}`, row.value === "-" ? null : row.value);
      }
    }
    const { body } = await get(path("us-cpi-all-items-nsa", "limit=500"));
    const served = new Map<string, string | null>(
      body.data.observations.map((row: Observation) => [row.referencePeriod, row.value]),
    );
    expect(served).toEqual(published);
    expect(periods(body)).toEqual([...published.keys()].sort());
    expect(served.get("2023-01")).toBe("299.170");
  });

  it("serves the computed 12-month change", async () => {
    const { body } = await get(path("us-cpi-all-items-12-month-change", "from=2023-01&to=2023-03"));
    expect(body.data.series.derived).toMatchObject({ inputSeries: ["us-cpi-all-items-nsa"] });
    expect(body.data.observations.map((row: Observation) => [row.referencePeriod, row.value])).toEqual([
      ["2023-01", "6.4"],
      ["2023-02", "6.0"],
      ["2023-03", "5.0"],
    ]);
  });

  it("answers a registered series with nothing ingested as an absent corpus: 503, never an empty 200", async () => {
    const { status, body, headers } = await get(path("us-jolts-job-openings"));
    expect(status).toBe(503);
    expect(body.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(headers.get("retry-after")).toMatch(/^[0-9]+$/);
  });
});
