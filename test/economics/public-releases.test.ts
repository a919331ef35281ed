import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeCursor } from "../../server/http/params.ts";
import { removeEconomicsDataDirs, SAMPLE_INGESTED_AT, sampleDataDir } from "../support/economics-index.ts";
import { ACTIVE, bySlug, REGISTRY_SERIES, RELEASES, type Release } from "../support/public-answers.ts";
import { type RunningService, startService } from "../support/service.ts";
import { yearAgoChangeByHand } from "../support/year-ago-change-by-hand.ts";

afterAll(removeEconomicsDataDirs);

/** Registered series the sample archive holds no values for. */
const SAMPLE_UNAVAILABLE = [
  "ea-hicp-all-items-annual-rate",
  "ea-industrial-producer-prices-month-on-month",
  "ea-industrial-production-index",
  "ea-m3-annual-growth-rate",
  "ea-real-gdp-quarter-on-quarter",
  "ea-trade-in-goods-balance-extra-euro-area",
  "ecb-euro-short-term-rate-month-end",
  "ecb-usd-per-eur-reference-rate-monthly-average",
  "us-employment-cost-index-12-month-change",
  "us-jolts-job-openings",
];

const slugsOf = (body: any): string[] => body.data.releases.map((release: Release) => release.series.slug);

describe("GET /api/public/v1/economics/releases over the sample archive", () => {
  let service: RunningService;
  // More active series than the default page of 20: every listing asks for one page of all.
  const releases = (query = "") => service.request(`${RELEASES}?limit=100${query ? `&${query}` : ""}`);

  beforeAll(async () => {
    service = await startService({ seedDataDir: await sampleDataDir() });
  });
  afterAll(() => service.close());

  it("lists every active registered series once; those without values as UNAVAILABLE, never omitted", async () => {
    const { status, body, headers } = await releases();
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("public, max-age=300");
    expect(headers.get("etag")).toMatch(/^W\//);
    expect([...slugsOf(body)].sort()).toEqual(ACTIVE.map((series) => series.slug).sort());
    expect(slugsOf(body)).not.toContain("ea-hicp-all-items-annual-rate-ecoicop-v1");
    const unavailable = body.data.releases.filter((release: Release) => release.availability === "UNAVAILABLE");
    expect(unavailable.map((release: Release) => release.series.slug).sort()).toEqual(SAMPLE_UNAVAILABLE);
    for (const release of unavailable) {
      expect(release).toMatchObject({
        referencePeriod: null,
        value: null,
        publicationStatus: null,
        publishedAt: null,
        ingestedAt: null,
        revision: null,
        previous: null,
        periods: [],
      });
      expect(release).not.toHaveProperty("derived");
    }
    // Unavailable series come after every series with a value.
    const availability = body.data.releases.map((release: Release) => release.availability);
    expect(availability).toEqual([...availability].sort());
    expect(body.meta).toMatchObject({
      lastIngestedAt: SAMPLE_INGESTED_AT,
      lastSuccessfulIngestionAt: SAMPLE_INGESTED_AT,
      dataUpdatedAt: SAMPLE_INGESTED_AT,
      dataStatus: "fresh",
      nextCursor: null,
    });
  });

  it("gives the newest value with the previous period, revision facts, attribution and links", async () => {
    const release = bySlug((await releases()).body).get("us-cpi-all-items-nsa")!;
    expect(release).toMatchObject({
      series: {
        slug: "us-cpi-all-items-nsa",
        family: "consumer-prices-us",
        country: "US",
        region: null,
        frequency: "MONTHLY",
        unit: { code: "INDEX_1982_1984_100", scale: 0 },
        seasonalAdjustment: "NOT_SEASONALLY_ADJUSTED",
        transformation: "INDEX",
        officialSeriesUrl: "https://data.bls.gov/timeseries/CUUR0000SA0",
      },
      availability: "AVAILABLE",
      referencePeriod: { code: "2026-07" },
      value: "333.918",
      // The CPI release of 12 August 2026 (08:30 New York), confirmed by this value: fetched on 24 August, after it.
      publishedAt: "2026-08-12T12:30:00.000Z",
      ingestedAt: SAMPLE_INGESTED_AT,
      revision: { count: 0, isRevision: false, previousValue: null },
      previous: { referencePeriod: "2026-06", value: "333.952", publicationStatus: null },
      attribution: { text: "Source: U.S. Bureau of Labor Statistics", required: true },
      links: {
        observations: "/api/public/v1/economics/observations?series=us-cpi-all-items-nsa",
        calendar: "/api/public/v1/economics/calendar?country=US",
      },
    });
    expect(release).not.toHaveProperty("derived");
    const ecb = bySlug((await releases()).body).get("ecb-deposit-facility-rate")!;
    expect(ecb).toMatchObject({
      attribution: { text: "Source: ECB statistics", required: true },
      links: { calendar: "/api/public/v1/economics/calendar?region=EA" },
    });
    const eurostat = bySlug((await releases()).body).get("es-unemployment-rate-sa")!;
    expect(eurostat).toMatchObject({
      attribution: { text: "Source: Eurostat", required: true },
      referencePeriod: { code: "1986-11" },
    });
  });

  it("links resolve: observations answer for series with values and 503 for the unavailable ones", async () => {
    const { body } = await releases();
    for (const release of body.data.releases as Release[]) {
      const observations = await service.request(release.links.observations);
      expect(observations.status, release.series.slug).toBe(release.availability === "AVAILABLE" ? 200 : 503);
      const calendar = await service.request(release.links.calendar);
      expect(calendar.status, release.links.calendar).toBe(200);
    }
  });

  it("derives the US CPI 12-month change with its formula and inputs, in exact decimals checked by hand", async () => {
    const release = bySlug((await releases()).body).get("us-cpi-all-items-12-month-change")!;
    const rule = REGISTRY_SERIES.find((series) => series.slug === "us-cpi-all-items-12-month-change")!.derived!;
    // By hand: 333.918 / 323.048 = 1.033648…, so the change is 3.3648…% and rounds half-up to 3.4. 2026-07 is the first
    // month of the 2026 recording with a year-ago twin in it (2025-07); the one before with a twin is 2024-05.
    expect(yearAgoChangeByHand("333.918", "323.048", 1)).toBe("3.4");
    expect(yearAgoChangeByHand("314.069", "304.127", 1)).toBe("3.3");
    expect(release).toMatchObject({
      referencePeriod: { code: "2026-07" },
      value: "3.4",
      provenance: {
        sourceId: "bls-api",
        adapter: "derive-series",
        derivation: "SERVICE_DERIVED",
        transformation: ["PERCENT_CHANGE_YEAR_AGO", "ROUNDED_HALF_UP"],
      },
      derived: {
        formula: rule.formula,
        inputs: [
          { sourceSeriesId: "CUUR0000SA0", referencePeriod: "2026-07", value: "333.918", vintage: 1 },
          { sourceSeriesId: "CUUR0000SA0", referencePeriod: "2025-07", value: "323.048", vintage: 1 },
        ],
      },
      previous: { referencePeriod: "2024-05", value: "3.3" },
    });
    // The inputs are the values the BLS sample publishes.
    const sample = JSON.parse(
      readFileSync(
        new URL("../../data/samples/bls-api/bls-v1-5series-2025-07_2026-07-captured-2026-08-24.json", import.meta.url),
        "utf8",
      ),
    );
    const published = (year: string, period: string) =>
      sample.Results.series[0].data.find(
        (row: { year: string; period: string }) => row.year === year && row.period === period,
      ).value;
    expect([published("2026", "M07"), published("2025", "M07")]).toEqual(["333.918", "323.048"]);
  });

  it("computes the 2023-01 change from CUUR0000SA0 2023-01 and 2022-01 exactly as worked by hand", async () => {
    // 299.170 / 281.148: 281.148 × 1.0641 = 299.1695868, remainder 0.0004132 / 281.148 = 0.0000014…,
    // so the ratio is 1.0641014… and the change 6.41014…%, which rounds half-up to 6.4.
    expect(yearAgoChangeByHand("299.170", "281.148", 1)).toBe("6.4");
    // 301.836 / 287.504 = 1.049849…: 4.9849…% rounds to 5.0, and the trailing zero is kept.
    expect(yearAgoChangeByHand("301.836", "287.504", 1)).toBe("5.0");
    const { body } = await service.request(
      "/api/public/v1/economics/observations?series=us-cpi-all-items-12-month-change&from=2023-01&to=2023-03",
    );
    expect(
      body.data.observations.map((row: { referencePeriod: string; value: string }) => [row.referencePeriod, row.value]),
    ).toEqual([
      ["2023-01", "6.4"],
      ["2023-02", yearAgoChangeByHand("300.840", "283.716", 1)],
      ["2023-03", "5.0"],
    ]);
  });

  it("perSeries: newest periods per series, default 1, clamped to 5, each with its current vintage", async () => {
    expect(bySlug((await releases()).body).get("us-cpi-all-items-nsa")!.periods).toEqual([
      expect.objectContaining({
        referencePeriod: "2026-07",
        value: "333.918",
        publicationStatus: null,
        publisherNote: null,
        revisionCount: 0,
      }),
    ]);
    const three = bySlug((await releases("perSeries=3")).body);
    expect(
      three
        .get("us-cpi-all-items-nsa")!
        .periods.map((period: { referencePeriod: string; value: string }) => [period.referencePeriod, period.value]),
    ).toEqual([
      ["2026-07", "333.918"],
      ["2026-06", "333.952"],
      ["2026-05", "335.123"],
    ]);
    expect(three.get("es-unemployment-rate-sa")!.periods).toHaveLength(1);
    const clamped = bySlug((await releases("perSeries=9")).body);
    expect(clamped.get("us-cpi-all-items-nsa")!.periods).toHaveLength(5);
    for (const value of ["0", "-2", "many"]) {
      const { status, body } = await releases(`perSeries=${value}`);
      expect(status, value).toBe(400);
      expect(body.error.code).toBe("VALIDATION_FAILED");
    }
  });

  it("pages with limit and cursor", async () => {
    const all = slugsOf((await releases()).body);
    expect(all).toHaveLength(ACTIVE.length);
    // More active series than the default page of 20: a first page of 20 with a cursor.
    const defaulted = await service.request(RELEASES);
    expect(slugsOf(defaulted.body)).toEqual(all.slice(0, 20));
    expect(defaulted.body.meta.nextCursor).toEqual(expect.any(String));
    expect(slugsOf((await service.request(`${RELEASES}?limit=1000`)).body)).toEqual(all);
    const paged: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const response: { body: any } = await service.request(`${RELEASES}?limit=4${cursor ? `&cursor=${cursor}` : ""}`);
      sizes.push(response.body.data.releases.length);
      paged.push(...slugsOf(response.body));
      cursor = response.body.meta.nextCursor;
    } while (cursor !== null);
    expect(sizes).toEqual(
      Array.from({ length: Math.ceil(ACTIVE.length / 4) }, (_, page) => Math.min(4, ACTIVE.length - page * 4)),
    );
    expect(paged).toEqual(all);
    for (const query of ["limit=0", "limit=none", "cursor=~~", "cursor=bzo"]) {
      const { status, body } = await service.request(`${RELEASES}?${query}`);
      expect(status, query).toBe(400);
      expect(body.error.code).toBe("VALIDATION_FAILED");
    }
    const past = await service.request(`${RELEASES}?cursor=${encodeCursor(ACTIVE.length)}`);
    expect(past.status).toBe(200);
    expect(past.body.data.releases).toEqual([]);
    expect(past.body.meta.nextCursor).toBeNull();
  });

  it("filters by series (up to 10 slugs), country and region", async () => {
    expect(
      slugsOf((await releases("series=us-cpi-all-items-nsa,ea-unemployment-rate,no-such-series")).body).sort(),
    ).toEqual(["ea-unemployment-rate", "us-cpi-all-items-nsa"]);
    const ten = ACTIVE.slice(0, 10).map((series) => series.slug);
    expect(slugsOf((await releases(`series=${ten.join(",")}`)).body).sort()).toEqual([...ten].sort());
    const eleven = await releases(
      `series=${ACTIVE.slice(0, 11)
        .map((series) => series.slug)
        .join(",")}`,
    );
    expect(eleven.status).toBe(400);
    expect(eleven.body.error.code).toBe("VALIDATION_FAILED");
    expect(slugsOf((await releases("country=us")).body).sort()).toEqual(
      ACTIVE.filter((series) => series.country === "US")
        .map((series) => series.slug)
        .sort(),
    );
    expect(slugsOf((await releases("country=DE")).body)).toEqual(["de-unemployment-rate"]);
    expect(slugsOf((await releases("region=ea")).body).sort()).toEqual(
      ACTIVE.filter((series) => series.region === "EA")
        .map((series) => series.slug)
        .sort(),
    );
    const badRegion = await releases("region=NAFTA");
    expect(badRegion.status).toBe(400);
    expect(badRegion.body.error.code).toBe("VALIDATION_FAILED");
    const none = await releases("country=JP");
    expect(none.status).toBe(200);
    expect(none.body.data.releases).toEqual([]);
  });

  it("omits inactive series from the listing but resolves one named by slug", async () => {
    const inactive = REGISTRY_SERIES.find((series) => !series.active)!.slug;
    expect(slugsOf((await releases("")).body)).not.toContain(inactive);
    expect(slugsOf((await releases(`series=${inactive}`)).body)).toEqual([inactive]);
  });
});
