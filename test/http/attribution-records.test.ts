import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPlacesIndex, loadAllTheCities } from "../../cli/places/build-places-index.ts";
import { DATA_FILES } from "../../schemas/data-files.ts";
import { PUBLISHER_TERMS } from "../../schemas/publishers.ts";
import { ALL_ROUTES } from "../../schemas/routes/all-routes.ts";
import type { RouteSpec } from "../../schemas/routes/route-spec.ts";
import { removeEconomicsDataDirs, sampleDataDir } from "../support/economics-index.ts";
import { type MetStandin, startMetStandin } from "../support/met-standin.ts";
import { type Operation, operationsOf } from "../support/openapi-operations.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";

/**
 * `meta.attributionRecords` on every success answer of every route, over the real sample index: each answer names
 * exactly the publishers whose rows it serves (worked out here from the body itself, with this test's own map of
 * source slugs), with `modifiedByService` true only where a served value is one the service derived.
 */

afterAll(removeEconomicsDataDirs);

let sampleDir = "";

/** The test's own oracle of which publisher runs each source, written independently of schemas/publishers.ts. */
const PUBLISHER_OF_SOURCE: Record<string, string> = {
  "labour-stats-release-schedule": "BLS",
  "bls-news-feed": "BLS",
  "eu-stats-release-calendar": "EUROSTAT",
  "central-bank-meetings-calendar": "ECB",
  "central-bank-statistics-calendar": "ECB",
  "ecb-press-feed": "ECB",
};
const MET = "met-norway-locationforecast";

/** Parameters for the routes that cannot answer 200 without them, and windows that hold data of every publisher. */
const EXAMPLE_QUERIES: Record<string, string> = {
  "v1.economics.events": "from=2023-01-01&to=2024-01-31&limit=500",
  "v1.economics.calendar": "from=2023-01-01&to=2024-01-31&limit=500",
  "v1.economics.seriesObservations": "limit=500",
  "public.economics.calendar": "from=2023-06-01&to=2023-08-31&limit=500",
  "public.economics.releases": "limit=100",
  "public.economics.observations": "series=us-cpi-all-items-12-month-change&limit=500",
  "public.news.events": "limit=100",
  "v1.weather.current": "lat=59.9139&lon=10.7522",
  "v1.weather.forecast": "lat=59.9139&lon=10.7522",
  "public.weather.current": "lat=59.91&lon=10.75",
  "public.weather.forecast": "lat=59.91&lon=10.75",
  "public.weather.places": "q=oslo",
};

interface SeriesFacts {
  publisher: string;
  derived: unknown;
}
type Attribution = Map<string, boolean>;

function add(expected: Attribution, sourceId: string, modified: boolean): void {
  expected.set(sourceId, expected.get(sourceId) === true || modified);
}

/** Publishers of calendar entries: the release's own, each listing calendar's, and the series of each value shown. */
function eventAttribution(entries: any[], series: Map<string, SeriesFacts>): Attribution {
  const expected: Attribution = new Map();
  for (const entry of entries) {
    add(expected, entry.release.publisher, false);
    for (const source of entry.sources) add(expected, PUBLISHER_OF_SOURCE[source.sourceId]!, false);
    for (const value of [entry.values.actual, entry.values.previous]) {
      const facts = value && value.value !== null ? series.get(value.seriesSlug) : undefined;
      if (facts) add(expected, facts.publisher, facts.derived !== null);
    }
  }
  return expected;
}

/** What the body's own rows say about whose data it carries; routes of the service's own records carry none. */
function expectedAttribution(route: RouteSpec, body: any, series: Map<string, SeriesFacts>): Attribution {
  const expected: Attribution = new Map();
  const data = body.data;
  switch (route.name) {
    case "v1.economics.events":
      return eventAttribution(data.entries, series);
    case "v1.economics.calendar":
      return eventAttribution(
        data.days.flatMap((day: any) => day.entries),
        series,
      );
    case "public.economics.calendar":
      return eventAttribution(
        data.days.flatMap((day: any) => day.events),
        series,
      );
    case "v1.economics.seriesObservations":
    case "public.economics.observations":
      if (data.observations.length > 0) add(expected, data.series.publisher, data.series.derived !== null);
      return expected;
    case "public.economics.releases":
      for (const release of data.releases.filter((candidate: any) => candidate.availability === "AVAILABLE")) {
        add(expected, series.get(release.series.slug)!.publisher, "derived" in release);
      }
      return expected;
    case "public.news.events":
      for (const item of data.events) {
        add(expected, PUBLISHER_OF_SOURCE[item.source]!, false);
        for (const link of item.links.series.filter((candidate: any) => candidate.value !== null)) {
          const facts = series.get(link.slug)!;
          add(expected, facts.publisher, facts.derived !== null);
        }
      }
      return expected;
    case "public.weather.places":
      if (data.places.length > 0) add(expected, "geonames", true);
      return expected;
    default:
      if (route.tag === "weather") add(expected, MET, true);
      else if (!["registry", "service", "status", "admin"].includes(route.tag))
        throw new Error(`no attribution rule for ${route.name}`);
      return expected;
  }
}

/** The first date an event of a calendar source is scheduled on in the sample index. */
function firstEventDate(source: string): string {
  const db = new Database(join(sampleDir, DATA_FILES.index), { readonly: true });
  try {
    return db
      .prepare(
        "SELECT min(e.scheduled_date) FROM events e JOIN event_sources s ON s.event_id = e.id WHERE s.source = ?",
      )
      .pluck()
      .get(source) as string;
  } finally {
    db.close();
  }
}

const plusDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

function asMap(records: { sourceId: string; modifiedByService: boolean }[]): Attribution {
  return new Map(records.map((record) => [record.sourceId, record.modifiedByService]));
}

describe("meta.attributionRecords on every success answer", () => {
  const clock = fakeClock("2026-11-21T12:00:00Z");
  let met: MetStandin;
  let service: RunningService;
  let series: Map<string, SeriesFacts>;
  let operations: Operation[];
  const keys: Record<"KEY" | "OPERATOR", string> = { KEY: "", OPERATOR: "" };

  beforeAll(async () => {
    met = await startMetStandin({ now: clock.now });
    sampleDir = await sampleDataDir();
    service = await startService({ seedDataDir: sampleDir, clock, weatherBaseUrl: met.url });
    // A small real gazetteer (GeoNames cities of Norway), so the places route serves GeoNames rows.
    buildPlacesIndex(service.dataDir, {
      cities: loadAllTheCities().filter((city) => city.country === "NO" && city.population > 50_000),
    });
    keys.KEY = service.createKey(["weather:read", "economics:read"]);
    keys.OPERATOR = service.createKey(["operator"]);
    const listing = await service.request("/api/v1/economics/series?limit=1000");
    series = new Map(
      listing.body.data.series.map((entry: any) => [
        entry.slug,
        { publisher: entry.publisher, derived: entry.derived },
      ]),
    );
    operations = operationsOf((await service.request("/api/v1/openapi.json")).body);
  });
  afterAll(async () => {
    await service.close();
    await met.close();
  });

  const get = (operation: Operation, path: string) =>
    service.request(
      path,
      operation.access === "PUBLIC" ? {} : { headers: { authorization: `Bearer ${keys[operation.access]}` } },
    );

  /** A value for each path parameter: a real family, a derived series, the newest recorded run. */
  async function concretePath(operation: Operation): Promise<string> {
    let path = operation.path.replace(
      "{slug}",
      operation.path.includes("/indicators/") ? "consumer-prices-us" : "us-cpi-all-items-12-month-change",
    );
    if (path.includes("{runId}")) {
      const runs = await get(operation, "/api/v1/admin/ingestion/runs");
      path = path.replace("{runId}", runs.body.data.runs[0].id);
    }
    expect(path, `no example for the path parameters of ${operation.id}`).not.toMatch(/\{/);
    return path;
  }

  it("names exactly the publishers of the rows served, for every enveloped GET operation", async () => {
    const checked: string[] = [];
    const served = new Set<string>();
    for (const operation of operations.filter((candidate) => candidate.method === "GET")) {
      const route = ALL_ROUTES.find((candidate) => candidate.name === operation.id)!;
      if (route.bare) continue;
      const query = EXAMPLE_QUERIES[route.name];
      const { status, body } = await get(operation, `${await concretePath(operation)}${query ? `?${query}` : ""}`);
      expect(status, route.name).toBe(200);
      expect(body.meta.attributionRecords, route.name).toEqual(expect.any(Array));
      expect(asMap(body.meta.attributionRecords), route.name).toEqual(expectedAttribution(route, body, series));
      checked.push(route.name);
      for (const record of body.meta.attributionRecords) served.add(record.sourceId);
    }
    // The routes that matter were reached, and every publisher's data was served somewhere.
    expect(checked).toEqual(
      expect.arrayContaining([
        "v1.economics.events",
        "public.economics.calendar",
        "public.news.events",
        "public.status",
        "v1.capabilities",
        "v1.economics.series",
        "v1.admin.ingestionRuns",
      ]),
    );
    expect([...served].sort()).toEqual(["BLS", "ECB", "EUROSTAT", "geonames", MET]);
  });

  it("covers all three economics publishers in one events answer, each with its own terms", async () => {
    const operation = operations.find((candidate) => candidate.id === "v1.economics.events")!;
    const { body } = await get(operation, `/api/v1/economics/events?${EXAMPLE_QUERIES["v1.economics.events"]}`);
    expect(body.meta.attributionRecords).toEqual(
      (["BLS", "EUROSTAT", "ECB"] as const).map((publisher) => ({
        sourceId: PUBLISHER_TERMS[publisher].sourceId,
        required: PUBLISHER_TERMS[publisher].required,
        licenseName: PUBLISHER_TERMS[publisher].licenseName,
        termsUrl: PUBLISHER_TERMS[publisher].termsUrl,
        modifiedByService: expect.any(Boolean),
      })),
    );
  });

  it("names only the publisher of the one calendar a public calendar is filtered to", async () => {
    for (const [source, publisher] of Object.entries(PUBLISHER_OF_SOURCE).filter(([slug]) => !slug.endsWith("-feed"))) {
      const from = firstEventDate(source);
      const { body } = await service.request(
        `/api/public/v1/economics/calendar?from=${from}&to=${plusDays(from, 60)}&source=${source}&limit=500`,
      );
      expect(body.data.days.length, source).toBeGreaterThan(0);
      expect(
        body.meta.attributionRecords.map((record: { sourceId: string }) => record.sourceId),
        source,
      ).toEqual([publisher]);
    }
  });

  it("is an empty list where the answer holds no publisher rows", async () => {
    const empty = await service.request("/api/public/v1/economics/calendar?from=2031-01-01&to=2031-01-31");
    expect(empty.body.data.days).toEqual([]);
    expect(empty.body.meta.attributionRecords).toEqual([]);
    const noPeriods = await service.request(
      "/api/public/v1/economics/observations?series=us-unemployment-rate&from=2999-01",
    );
    expect(noPeriods.body.data.observations).toEqual([]);
    expect(noPeriods.body.meta.attributionRecords).toEqual([]);
  });

  it("marks a publisher modified only where the service derived a value from its data", async () => {
    const derived = await service.request(
      "/api/public/v1/economics/observations?series=us-cpi-all-items-12-month-change",
    );
    expect(derived.body.meta.attributionRecords).toEqual([
      expect.objectContaining({ sourceId: "BLS", modifiedByService: true }),
    ]);
    const index = await service.request("/api/public/v1/economics/observations?series=us-cpi-all-items-nsa");
    expect(index.body.meta.attributionRecords).toEqual([
      expect.objectContaining({ sourceId: "BLS", modifiedByService: false }),
    ]);
    const pairs = (records: { sourceId: string; modifiedByService: boolean }[]) =>
      records.map((record) => [record.sourceId, record.modifiedByService]);
    // For each publisher, one series of its own published values that the sample holds.
    const all: any[] = (await service.request("/api/public/v1/economics/releases?limit=100")).body.data.releases;
    const ownValues = ["BLS", "EUROSTAT", "ECB"].flatMap((publisher) =>
      all
        .filter(
          (release) =>
            release.availability === "AVAILABLE" &&
            !("derived" in release) &&
            series.get(release.series.slug)!.publisher === publisher,
        )
        .slice(0, 1)
        .map((release) => [publisher, release.series.slug]),
    );
    expect(ownValues.length).toBeGreaterThanOrEqual(2);
    const releases = await service.request(
      `/api/public/v1/economics/releases?series=${ownValues.map(([, slug]) => slug).join(",")}`,
    );
    expect(pairs(releases.body.meta.attributionRecords)).toEqual(ownValues.map(([publisher]) => [publisher, false]));
    const withDerived = await service.request(
      "/api/public/v1/economics/releases?series=us-cpi-all-items-nsa,us-cpi-all-items-12-month-change",
    );
    expect(pairs(withDerived.body.meta.attributionRecords)).toEqual([["BLS", true]]);
  });
});
