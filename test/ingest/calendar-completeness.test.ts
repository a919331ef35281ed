import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReleaseResolver } from "../../cli/ingest/release-matching.ts";
import { type IngestSummary, runIngestion } from "../../cli/ingest/run-ingestion.ts";
import { UNCLASSIFIED_BASIS, uncuratedSlug } from "../../cli/ingest/uncurated-releases.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import type { CalendarSource } from "../../schemas/vocabularies.ts";
import { credentialedClient } from "../support/economics-requests.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";
import { removeTempDirs, runCliAsync, SAMPLES_DIR, tempDir } from "./cli-process.ts";

afterAll(removeTempDirs);

const registry = readRegistrySources(new Date("2026-11-21T00:00:00Z"));
const BLS: CalendarSource = "labour-stats-release-schedule";
const EUROSTAT: CalendarSource = "eu-stats-release-calendar";
const MEETINGS: CalendarSource = "central-bank-meetings-calendar";
const STATISTICS: CalendarSource = "central-bank-statistics-calendar";

const sampleFiles = (source: string) =>
  readdirSync(join(SAMPLES_DIR, source))
    .filter((name) => !name.endsWith(".md") && !name.endsWith(".fetch.json"))
    .sort()
    .map((name) => readFileSync(join(SAMPLES_DIR, source, name), "utf8"));

/** Record ids read from the raw documents with nothing but regular expressions and JSON.parse: the calendars' own count. */
const RECORDS_IN_DOCUMENTS: Record<Exclude<CalendarSource, "central-bank-statistics-calendar">, () => Set<string>> = {
  [BLS]: () =>
    new Set(sampleFiles(BLS).flatMap((text) => [...text.matchAll(/^UID:(.+?)\r?$/gm)].map((match) => match[1]!))),
  [MEETINGS]: () =>
    new Set(sampleFiles(MEETINGS).flatMap((text) => [...text.matchAll(/^UID:(.+?)\r?$/gm)].map((match) => match[1]!))),
  [EUROSTAT]: () =>
    new Set(
      sampleFiles(EUROSTAT).flatMap((text) =>
        (JSON.parse(text) as { recordid: string }[]).map((record) => String(record.recordid)),
      ),
    ),
};

function ledger<T>(dataDir: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(join(dataDir, "store.sqlite"), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

describe("every record of every calendar of the sample archive", () => {
  const dataDir = tempDir("completeness");
  let summary: IngestSummary;

  beforeAll(async () => {
    let tick = Date.parse("2026-11-21T06:00:00.000Z");
    summary = await runIngestion({
      dataDir,
      registry,
      mode: { kind: "archive", dir: SAMPLES_DIR },
      only: null,
      now: () => tick++,
      progress: () => {},
    });
    expect(summary.outcome).toBe("succeeded");
  });

  it("is an event or a skipped record with its reason, never both and never neither", () => {
    for (const [source, read] of Object.entries(RECORDS_IN_DOCUMENTS)) {
      const records = read();
      const events = new Set(
        ledger<{ id: string }>(dataDir, "SELECT source_event_id AS id FROM event_sources WHERE source = ?", source).map(
          (row) => row.id,
        ),
      );
      const skipped = new Set(
        ledger<{ id: string }>(
          dataDir,
          "SELECT record AS id FROM skipped_calendar_records WHERE source = ?",
          source,
        ).map((row) => row.id),
      );
      expect(
        [...events].filter((id) => skipped.has(id)),
        source,
      ).toEqual([]);
      expect(new Set([...events, ...skipped]), source).toEqual(records);
    }
    // The statistical calendar page has no ids: its 147 release rows (one header row aside) are 147 events.
    const rows = sampleFiles(STATISTICS).reduce((total, text) => total + [...text.matchAll(/<dt>/g)].length - 1, 0);
    expect(
      ledger<{ n: number }>(dataDir, "SELECT count(*) AS n FROM event_sources WHERE source = ?", STATISTICS)[0]!.n,
    ).toBe(rows);
  });

  it("makes the releases the registry does not curate events of their own, UNCLASSIFIED, with a slug from the publisher's title", () => {
    const titles: [CalendarSource, string][] = [
      [BLS, "U.S. Import and Export Price Indexes"],
      [BLS, "Productivity and Costs"],
      [BLS, "Employer Costs for Employee Compensation"],
      [BLS, "Usual Weekly Earnings of Wage and Salary Workers"],
      [BLS, "State Employment and Unemployment (Monthly)"],
      [BLS, "Metropolitan Area Employment and Unemployment (Monthly)"],
      [EUROSTAT, "Production in construction"],
      [EUROSTAT, "Labour cost index"],
      [EUROSTAT, "Job vacancy"],
      [EUROSTAT, "House price index"],
      [EUROSTAT, "General government deficit and debt"],
      [STATISTICS, "Harmonised Competitiveness Indicators (Dataset: EXR)"],
    ];
    const resolve = createReleaseResolver(registry);
    const curated = new Set(registry.releases.map((release) => release.slug));
    for (const [source, title] of titles) {
      const rows = ledger<{ release_slug: string }>(
        dataDir,
        "SELECT DISTINCT e.release_slug FROM events e JOIN event_sources s ON s.event_id = e.id WHERE s.source = ? AND s.title = ?",
        source,
        title,
      );
      expect(rows, title).toHaveLength(1);
      const resolved = resolve(source, title);
      expect(rows[0]!.release_slug, title).toBe(resolved.release.slug);
      if (resolved.curated) continue;
      expect(resolved.release.slug).toBe(uncuratedSlug(source, title, curated));
      expect(resolved.release).toMatchObject({
        importance: "UNCLASSIFIED",
        importanceBasis: UNCLASSIFIED_BASIS,
        category: "OTHER",
        seriesSlugs: [],
      });
      expect(
        ledger(dataDir, "SELECT slug, source FROM uncurated_releases WHERE slug = ?", rows[0]!.release_slug),
      ).toEqual([{ slug: rows[0]!.release_slug, source }]);
    }
    expect(uncuratedSlug(BLS, "U.S. Import and Export Price Indexes", curated)).toBe(
      "bls-u-s-import-and-export-price-indexes",
    );
    expect(uncuratedSlug(STATISTICS, "Harmonised Competitiveness Indicators (Dataset: EXR)", curated)).toBe(
      "ecb-harmonised-competitiveness-indicators-dataset-exr",
    );
    // Title variants of one release are one release; a curated slug is never borrowed.
    expect(uncuratedSlug(EUROSTAT, "GDP and main aggregates / Employment - database update", curated)).toBe(
      uncuratedSlug(EUROSTAT, "GDP and main aggregates/Employment - database update", curated),
    );
    expect(uncuratedSlug(BLS, "Consumer Price Index", curated)).toBe("bls-consumer-price-index-unclassified");
  });

  it("names what was skipped, by reason, in the run summary and the run record", () => {
    const bySource = Object.fromEntries(summary.sources.map((source) => [source.source, source]));
    expect(bySource[BLS]!.skipped).toEqual([]);
    expect(bySource[EUROSTAT]!.skipped).toEqual([
      {
        reason: "DATE_THE_SOURCE_GETS_WRONG",
        count: 2,
        titles: [
          {
            title: "R&D expenditure",
            detail: "scheduled 2189-05-10, after 2025-12-31: no Eurostat calendar reaches that far",
            records: 1,
            first: { record: "13018735", scheduledDate: "2189-05-10" },
          },
        ],
      },
    ]);
    const meetings = bySource[MEETINGS]!.skipped!;
    expect(meetings.map((entry) => [entry.reason, entry.count])).toEqual([["NOT_A_RELEASE", 61]]);
    expect(meetings[0]!.titles.reduce((total, title) => total + title.records, 0)).toBe(
      ledger(dataDir, "SELECT record FROM skipped_calendar_records WHERE source = ?", MEETINGS).length,
    );
    expect(meetings[0]!.titles.find((title) => title.first.scheduledDate === "2028-10-11")).toMatchObject({
      title: "ECB GovC: monetary policy meeting in Frankfurt",
      records: 1,
    });
    expect(
      meetings[0]!.titles.find((title) => title.title === "ECB GovC: non-monetary policy meeting (virtual)"),
    ).toMatchObject({ records: 18 });
    expect(meetings[0]!.titles.every((title) => !/\(Day 2\)/.test(title.title!))).toBe(true);
    const run = ledger<{ summary: string }>(dataDir, "SELECT summary FROM runs")[0]!;
    expect(
      (JSON.parse(run.summary) as { sources: IngestSummary["sources"] }).sources.find(
        (source) => source.source === MEETINGS,
      )!.skipped,
    ).toEqual(meetings);
    // Kept in the ledger, each with its reason and what the source said.
    expect(
      ledger(
        dataDir,
        "SELECT record, reason, title, scheduled_date FROM skipped_calendar_records WHERE source = ? AND record = '13018735'",
        EUROSTAT,
      ),
    ).toEqual([
      {
        record: "13018735",
        reason: "DATE_THE_SOURCE_GETS_WRONG",
        title: "R&D expenditure",
        scheduled_date: "2189-05-10",
      },
    ]);
  });

  it("serves uncurated events on every event route, valid against the JSON Schemas", async () => {
    let service: RunningService | null = null;
    try {
      service = await startService({ seedDataDir: dataDir, clock: fakeClock("2026-11-23T12:00:00Z") });
      const get = credentialedClient(service);
      // Every response of `request` is checked against its route's JSON Schema (test/support/contract.ts).
      const events = await get(
        "/api/v1/economics/events?from=2025-01-01&to=2025-12-31&importance=UNCLASSIFIED&limit=500",
      );
      expect(events.status).toBe(200);
      expect(events.body.data.entries.length).toBeGreaterThan(50);
      expect(new Set(events.body.data.entries.map((entry: { importance: string }) => entry.importance))).toEqual(
        new Set(["UNCLASSIFIED"]),
      );
      const ecec = events.body.data.entries.find(
        (entry: { title: string }) => entry.title === "Employer Costs for Employee Compensation",
      );
      expect(ecec).toMatchObject({
        release: {
          slug: "bls-employer-costs-for-employee-compensation",
          publisher: "BLS",
          officialPageUrl: "https://www.bls.gov/schedule/news_release/",
        },
        country: "US",
        currency: "USD",
        category: "OTHER",
        importanceBasis: UNCLASSIFIED_BASIS,
        values: { availability: "NOT_LINKED", actual: null, previous: null },
      });
      const calendar = await get(
        "/api/v1/economics/calendar?from=2026-10-01&to=2026-12-31&tz=Europe/Berlin&limit=500&release=ecb-harmonised-competitiveness-indicators-dataset-exr,eurostat-house-price-index",
      );
      expect(calendar.status).toBe(200);
      const publicCalendar = await service.request(
        "/api/public/v1/economics/calendar?from=2026-10-01&to=2026-12-31&limit=200&region=EA",
      );
      expect(publicCalendar.status).toBe(200);
      const titles = publicCalendar.body.data.days.flatMap((day: { events: { title: string }[] }) =>
        day.events.map((event) => event.title),
      );
      expect(titles).toEqual(expect.arrayContaining(["House price index", "Job vacancy", "Labour cost index"]));
    } finally {
      await service?.close();
    }
  });
});

describe("service ingest --from-archive data/samples", () => {
  it("prints the skipped records by source and reason, naming them", async () => {
    const result = await runCliAsync(
      ["ingest", "--from-archive", SAMPLES_DIR, "--data-dir", tempDir("completeness-cli")],
      {},
      { timeoutMs: 60_000 },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^skipped eu-stats-release-calendar DATE_THE_SOURCE_GETS_WRONG 2: "R&D expenditure" \(record 13018735, 2189-05-10\)$/m,
    );
    expect(result.stdout).toMatch(
      /^skipped central-bank-meetings-calendar NOT_A_RELEASE 61: "ECB GovC: monetary policy meeting in Frankfurt \(Day 1\)" ×19, /m,
    );
    expect(result.stderr).toMatch(
      /^\[1\/\d+\] labour-stats-release-schedule: ok — 2 documents, 567 received, 567 created, 324 uncurated$/m,
    );
  });
});
