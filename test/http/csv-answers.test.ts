import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CsvForm, cellText, valueAt } from "../../schemas/responses/csv-tables.ts";
import { ALL_ROUTES } from "../../schemas/routes/all-routes.ts";
import { removeEconomicsDataDirs, sampleDataDir } from "../support/economics-index.ts";
import { credentialedClient } from "../support/economics-requests.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";

/**
 * The CSV form of the list answers (issue 40) over the sample archive: every route's CSV compared value by value with
 * its JSON, by the route's declared columns and by hand for the values that matter (periods, values, times).
 */

afterAll(removeEconomicsDataDirs);

type Row = Record<string, any>;
type Answer = Awaited<ReturnType<RunningService["request"]>>;

const formOf = (name: string): CsvForm => ALL_ROUTES.find((route) => route.name === name)!.csv!;
const column = (answer: Answer, name: string): string[] => {
  const at = answer.csv!.header.indexOf(name);
  expect(at, `column ${name}`).toBeGreaterThanOrEqual(0);
  return answer.csv!.rows.map((row) => row[at]!);
};
const text = (value: unknown) => (value === null || value === undefined ? "" : String(value));
const JSON_TYPE = "application/json; charset=utf-8";
const CSV_TYPE = "text/csv; charset=utf-8; header=present";
/** The `rel="license"` links of an answer's Link header, in order. */
const licenceLinks = (answer: Answer): string[] =>
  (answer.headers.get("link") ?? "").split(/,\s*(?=<)/).filter((link) => link.includes('rel="license"'));
/** The Link header's form of the JSON's attribution records (docs/api.md, CSV). */
const licencesOf = (json: Answer): string[] =>
  json.body.meta.attributionRecords.map(
    (record: Row) =>
      `<${record.termsUrl}>; rel="license"; title="${record.licenseName}"; source="${record.sourceId}"; required="${record.required}"; modified="${record.modifiedByService}"`,
  );

/** Every cell of the CSV equals the JSON value its column names, row by row (the JSON read by the declared paths). */
function expectSameValues(json: Answer, csv: Answer, form: CsvForm): void {
  expect(json.status).toBe(200);
  expect(csv.status).toBe(200);
  const table = form.tableFor(json.body.data);
  expect(csv.csv!.header).toEqual(table.columns.map((entry) => entry.name));
  const rows = table.rows(json.body.data);
  expect(csv.csv!.rows).toHaveLength(rows.length);
  rows.forEach((row, index) => {
    expect(csv.csv!.rows[index]).toEqual(table.columns.map((entry) => cellText(valueAt(row, entry.path))));
  });
}

const BROWSER_ORIGIN = "https://app.example.com";
const CREDENTIALED_RANGE = "from=2023-01-01&to=2024-01-31";

describe("CSV answers over the sample archive", () => {
  let service: RunningService;
  let get: ReturnType<typeof credentialedClient>;
  /** The same question as JSON, as CSV by `format`, and as CSV by `Accept`; the two CSVs must be the same bytes. */
  const both = async (path: string, credentialed = false) => {
    const ask = credentialed ? get : (target: string, init?: RequestInit) => service.request(target, init);
    const json = await ask(path);
    const csv = await ask(`${path}${path.includes("?") ? "&" : "?"}format=csv`);
    const accepted = await ask(path, { headers: { accept: "text/csv" } });
    expect(accepted.text).toBe(csv.text);
    expect(csv.headers.get("content-type")).toBe(CSV_TYPE);
    // Every route's CSV names the publishers' terms its JSON names.
    expect(licenceLinks(csv)).toEqual(licencesOf(json));
    return { json, csv };
  };

  beforeAll(async () => {
    service = await startService({
      seedDataDir: await sampleDataDir(),
      clock: fakeClock("2026-11-21T12:00:00Z"),
      corsOrigins: [BROWSER_ORIGIN],
    });
    get = credentialedClient(service);
  });
  afterAll(() => service.close());

  it("public observations: one row per period, values the publisher's exact strings", async () => {
    const { json, csv } = await both("/api/public/v1/economics/observations?series=us-cpi-all-items-nsa");
    expectSameValues(json, csv, formOf("public.economics.observations"));
    const observations: Row[] = json.body.data.observations;
    expect(observations.length).toBeGreaterThan(40);
    expect(column(csv, "referencePeriod")).toEqual(observations.map((row) => row.referencePeriod));
    expect(column(csv, "value")).toEqual(observations.map((row) => text(row.value)));
    expect(column(csv, "series")).toEqual(observations.map(() => "us-cpi-all-items-nsa"));
    // BLS's "-" of October 2025 is null in JSON, an empty field in CSV.
    expect(column(csv, "value")[column(csv, "referencePeriod").indexOf("2025-10")]).toBe("");
  });

  it("credentialed observations: current, as of an instant, and every vintage", async () => {
    const path = "/api/v1/economics/series/us-cpi-all-items-nsa/observations";
    const form = formOf("v1.economics.seriesObservations");
    for (const query of ["", "?asOf=2026-11-21T12:00:00Z", "?vintages=all", "?vintages=all&asOf=2026-11-21"]) {
      const { json, csv } = await both(`${path}${query}`, true);
      expectSameValues(json, csv, form);
      // As of an instant, values from a recording of unknown fetch time are not known to have stood (docs/data.md).
      expect(csv.csv!.rows.length, query).toBeGreaterThan(query.includes("asOf") ? 10 : 40);
    }
    const { json, csv } = await both(`${path}?vintages=all`, true);
    const vintages: Row[] = json.body.data.periods.flatMap((period: Row) =>
      period.vintages.map((vintage: Row) => ({ period: period.referencePeriod, ...vintage })),
    );
    expect(column(csv, "referencePeriod")).toEqual(vintages.map((row) => row.period));
    expect(column(csv, "sequence")).toEqual(vintages.map((row) => String(row.sequence)));
    expect(column(csv, "value")).toEqual(vintages.map((row) => text(row.value)));
    expect(column(csv, "recordedAt")).toEqual(vintages.map((row) => text(row.recordedAt)));
  });

  it("releases: one row per period of each series, unavailable series as one row", async () => {
    for (const query of ["limit=100", "limit=100&perSeries=3"]) {
      const { json, csv } = await both(`/api/public/v1/economics/releases?${query}`);
      expectSameValues(json, csv, formOf("public.economics.releases"));
    }
    const { json, csv } = await both("/api/public/v1/economics/releases?limit=100");
    const releases: Row[] = json.body.data.releases;
    expect(column(csv, "series")).toEqual(releases.map((release) => release.series.slug));
    expect(column(csv, "value")).toEqual(releases.map((release) => text(release.value)));
    expect(column(csv, "referencePeriod")).toEqual(releases.map((release) => text(release.referencePeriod?.code)));
    expect(column(csv, "availability")).toContain("UNAVAILABLE");
  });

  it("the public calendar, the credentialed events and calendar: one row per event", async () => {
    const calendar = await both("/api/public/v1/economics/calendar?from=2023-01-01&to=2023-03-31&tz=Europe/Oslo");
    expectSameValues(calendar.json, calendar.csv, formOf("public.economics.calendar"));
    const days: Row[] = calendar.json.body.data.days;
    const events = days.flatMap((day) => day.events.map((event: Row) => ({ day: day.date, ...event })));
    expect(events.length).toBeGreaterThan(10);
    expect(column(calendar.csv, "id")).toEqual(events.map((event) => event.id));
    expect(column(calendar.csv, "day")).toEqual(events.map((event) => event.day));
    expect(column(calendar.csv, "scheduledAt")).toEqual(events.map((event) => text(event.scheduledAt)));
    expect(column(calendar.csv, "localTime")).toEqual(events.map((event) => text(event.local.time)));

    const entries = await both(`/api/v1/economics/events?${CREDENTIALED_RANGE}&limit=500`, true);
    expectSameValues(entries.json, entries.csv, formOf("v1.economics.events"));
    const rows: Row[] = entries.json.body.data.entries;
    expect(rows.length).toBeGreaterThan(100);
    expect(column(entries.csv, "title")).toEqual(rows.map((entry) => entry.title));
    expect(column(entries.csv, "actualValue")).toEqual(rows.map((entry) => text(entry.values.actual?.value)));
    expect(column(entries.csv, "localDate").every((cell) => cell === "")).toBe(true);

    const grouped = await both(`/api/v1/economics/calendar?${CREDENTIALED_RANGE}&tz=America/New_York`, true);
    expectSameValues(grouped.json, grouped.csv, formOf("v1.economics.calendar"));
    expect(column(grouped.csv, "localTimeZone").every((cell) => cell === "America/New_York")).toBe(true);
  });

  it("pages with a Link rel=next that keeps the filters and asks for CSV, and names each publisher's terms", async () => {
    const path = "/api/public/v1/economics/observations?series=us-cpi-all-items-nsa&limit=10";
    const first = await service.request(path, { headers: { accept: "text/csv" } });
    const json = await service.request(path);
    const links = first.headers.get("link")!.split(/,\s*(?=<)/);
    const next = links.find((link) => link.endsWith('rel="next"'))!;
    const target = /^<([^>]+)>/.exec(next)![1]!;
    const nextUrl = new URL(target, service.url);
    expect(nextUrl.pathname).toBe("/api/public/v1/economics/observations");
    expect(Object.fromEntries(nextUrl.searchParams)).toEqual({
      series: "us-cpi-all-items-nsa",
      limit: "10",
      cursor: json.body.meta.nextCursor,
      format: "csv",
    });
    const second = await service.request(target);
    const secondJson = await service.request(`${path}&cursor=${json.body.meta.nextCursor}`);
    expectSameValues(secondJson, second, formOf("public.economics.observations"));
    expect(licenceLinks(first)).toEqual(licencesOf(json));
    expect(licenceLinks(first).length).toBeGreaterThan(0);
    // The last page has no next link.
    const last = await service.request(
      "/api/public/v1/economics/observations?series=us-cpi-all-items-nsa&limit=365&format=csv",
    );
    expect(last.headers.get("link")).not.toContain('rel="next"');
  });

  it("keeps JSON and CSV apart in validators and caches, and answers errors as JSON", async () => {
    const path = "/api/public/v1/economics/observations?series=us-cpi-all-items-nsa";
    const json = await service.request(path);
    const csv = await service.request(path, { headers: { accept: "text/csv" } });
    expect(csv.headers.get("etag")).not.toBe(json.headers.get("etag"));
    for (const answer of [json, csv]) expect(answer.headers.get("vary")).toContain("accept");
    const again = await service.request(path, {
      headers: { accept: "text/csv", "if-none-match": json.headers.get("etag")! },
    });
    expect(again.status).toBe(200);
    expect(again.text).toBe(csv.text);
    const notModified = await service.request(path, {
      headers: { accept: "text/csv", "if-none-match": csv.headers.get("etag")! },
    });
    expect(notModified.status).toBe(304);
    // The answer kept for the URL as JSON is not served to a CSV request, nor the other way round.
    const jsonAgain = await service.request(path);
    expect(jsonAgain.headers.get("content-type")).toBe(JSON_TYPE);
    expect(jsonAgain.body.data).toEqual(json.body.data);
    expect(service.logEntries.filter((entry) => entry.cache === "kept").length).toBeGreaterThan(0);
    for (const accept of ["application/json", "*/*", "text/csv;q=0.5, application/json", "text/html"]) {
      const answer = await service.request(path, { headers: { accept } });
      expect(answer.headers.get("content-type"), accept).toBe(JSON_TYPE);
    }
    expect((await service.request(`${path}&format=JSON`, { headers: { accept: "text/csv" } })).body.data).toEqual(
      json.body.data,
    );
    // Given twice, the first counts (docs/api.md, Parameters), blank or not.
    expect((await service.request(`${path}&format=csv&format=json`)).text).toBe(csv.text);
    expect((await service.request(`${path}&format=&format=csv`)).body.data).toEqual(json.body.data);

    const unknown = await service.request("/api/public/v1/economics/observations?series=no-such-series&format=csv");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("NOT_FOUND");
    const badFormat = await service.request(`${path}&format=xml`);
    expect(badFormat.status).toBe(400);
    expect(badFormat.body.error.code).toBe("VALIDATION_FAILED");
    const unauthorised = await service.request("/api/v1/economics/events?format=csv");
    expect(unauthorised.status).toBe(401);
    expect(unauthorised.headers.get("content-type")).toBe(JSON_TYPE);
    // Routes without a CSV form answer JSON whatever is asked.
    const registry = await service.request("/api/v1/economics/indicators?format=csv");
    expect(registry.headers.get("content-type")).toBe(JSON_TYPE);

    const head = await service.request(`${path}&format=csv`, { method: "HEAD" });
    expect(head.status).toBe(200);
    const got = await service.request(`${path}&format=csv`);
    expect(head.headers.get("content-length")).toBe(got.headers.get("content-length"));
    expect(head.headers.get("content-type")).toBe(got.headers.get("content-type"));
  });

  it("keeps JSON and CSV apart at the edge: a URL kept as one form answers the other as asked", async () => {
    const asCsv = { headers: { accept: "text/csv" } };
    const typeOf = (answer: Answer) => answer.headers.get("content-type");
    const keptLine = (answer: Answer) =>
      service.logEntries.find((entry) => entry.requestId === answer.headers.get("x-request-id"));

    // Kept as JSON, the URL is taken by the Node listener's edge path (node-listener.ts) whatever Accept says.
    const keptAsJson = "/api/public/v1/economics/releases?limit=7";
    const json = await service.request(keptAsJson);
    await service.request(keptAsJson);
    let before = service.edgeAnswers();
    const csv = await service.request(keptAsJson, asCsv);
    const csvAgain = await service.request(keptAsJson, asCsv);
    const jsonAgain = await service.request(keptAsJson);
    expect(service.edgeAnswers()).toBe(before + 3);
    expect([typeOf(csv), typeOf(csvAgain), typeOf(jsonAgain)]).toEqual([CSV_TYPE, CSV_TYPE, JSON_TYPE]);
    expect(csvAgain.text).toBe(csv.text);
    expect(keptLine(csvAgain)).toMatchObject({ cache: "kept", status: 200 });
    expect(jsonAgain.body.data).toEqual(json.body.data);
    expect(keptLine(jsonAgain)).toMatchObject({ cache: "kept", status: 200 });
    // One form's validator never revalidates the other.
    const csvWithJsonTag = await service.request(keptAsJson, {
      headers: { accept: "text/csv", "if-none-match": json.headers.get("etag")! },
    });
    expect([csvWithJsonTag.status, typeOf(csvWithJsonTag), csvWithJsonTag.text]).toEqual([200, CSV_TYPE, csv.text]);
    const jsonWithCsvTag = await service.request(keptAsJson, {
      headers: { "if-none-match": csv.headers.get("etag")! },
    });
    expect([jsonWithCsvTag.status, typeOf(jsonWithCsvTag)]).toEqual([200, JSON_TYPE]);

    // Kept as CSV first, the other way round.
    const keptAsCsv = "/api/public/v1/economics/releases?limit=8";
    const firstCsv = await service.request(keptAsCsv, asCsv);
    await service.request(keptAsCsv, asCsv);
    before = service.edgeAnswers();
    const thenJson = await service.request(keptAsCsv);
    const thenCsv = await service.request(keptAsCsv, asCsv);
    expect(service.edgeAnswers()).toBe(before + 2);
    expect([typeOf(thenJson), typeOf(thenCsv)]).toEqual([JSON_TYPE, CSV_TYPE]);
    expect(thenJson.body.data.releases).toHaveLength(8);
    expect(thenCsv.text).toBe(firstCsv.text);

    // A format=csv URL is kept as CSV only; the edge takes it too, and format wins over Accept there as in h3.
    const byFormat = "/api/public/v1/economics/releases?limit=9&format=csv";
    const viaH3 = await service.request(byFormat);
    await service.request(byFormat);
    before = service.edgeAnswers();
    const atTheEdge = await service.request(byFormat, { headers: { accept: "application/json" } });
    expect(service.edgeAnswers()).toBe(before + 1);
    expect([typeOf(atTheEdge), atTheEdge.text]).toEqual([CSV_TYPE, viaH3.text]);
    expect(keptLine(atTheEdge)).toMatchObject({ cache: "kept", status: 200 });
  });

  it("lets a browser on a listed origin ask for CSV and read its Link and ETag", async () => {
    const path = "/api/public/v1/economics/observations?series=us-cpi-all-items-nsa&limit=5";
    const preflight = await fetch(service.url + path, {
      method: "OPTIONS",
      headers: {
        origin: BROWSER_ORIGIN,
        "access-control-request-method": "GET",
        "access-control-request-headers": "accept",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")?.split(",")).toContain("accept");
    const csv = await service.request(path, { headers: { origin: BROWSER_ORIGIN, accept: "text/csv" } });
    expect(csv.headers.get("content-type")).toBe(CSV_TYPE);
    expect(csv.headers.get("access-control-allow-origin")).toBe(BROWSER_ORIGIN);
    expect(csv.headers.get("access-control-expose-headers")?.split(",")).toEqual(
      expect.arrayContaining(["link", "etag"]),
    );
    expect(csv.headers.get("vary")).toBe("origin, accept");
  });
});
