import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyCalendarSnapshot } from "../../cli/ingest/apply-calendar.ts";
import { applyObservations, createSeriesIndex } from "../../cli/ingest/apply-observations.ts";
import { openStore } from "../../cli/ingest/ledger/store.ts";
import { createReleaseResolver } from "../../cli/ingest/release-matching.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { upstreamSeriesKey } from "../../schemas/registry.ts";
import { type IngestSummary, publishIndex, runIngestion } from "../support/compiled-ingestion.ts";
import { PUBLISHER_PATHS } from "../support/publisher-paths.ts";
import { type PublisherStandin, startPublisherStandin } from "../support/publisher-standin.ts";
import { startService } from "../support/service.ts";
import { removeTempDirs, tempDir } from "./cli-process.ts";

/**
 * One BLS series (LNS14000000, us-unemployment-rate) fetched five times from the stand-in, each time with the
 * document a later day might bring, through the real fetch-mode pipeline (fetch, archive, parse, vintages, index).
 * The envelope and row shape are those of the recorded BLS API answers in data/samples/bls-api/.
 */
function blsDocument(april: { value: string; preliminary: boolean }): string {
  const footnotes = (preliminary: boolean) => (preliminary ? [{ code: "P", text: "preliminary" }] : [{}]);
  return JSON.stringify({
    status: "REQUEST_SUCCEEDED",
    responseTime: 97,
    message: [],
    Results: {
      series: [
        {
          seriesID: "LNS14000000",
          data: [
            {
              year: "2016",
              period: "M04",
              periodName: "April",
              latest: "true",
              value: april.value,
              footnotes: footnotes(april.preliminary),
            },
            { year: "2016", period: "M03", periodName: "March", value: "5.0", footnotes: footnotes(false) },
          ],
        },
      ],
    },
  });
}

const SEQUENCE = [
  { step: "new value", document: { value: "5.0", preliminary: true }, appended: 2 },
  { step: "same value", document: { value: "5.0", preliminary: true }, appended: 0 },
  { step: "reformatted value", document: { value: "5", preliminary: true }, appended: 0 },
  { step: "revised value", document: { value: "5.1", preliminary: true }, appended: 1 },
  { step: "status-only change (footnote P removed)", document: { value: "5.1", preliminary: false }, appended: 1 },
] as const;

const DAY = 86_400_000;
const FIRST_RUN = Date.parse("2026-11-02T13:45:00.000Z");
const runTime = (index: number) => new Date(FIRST_RUN + index * DAY).toISOString();

interface IndexRow {
  value: string | null;
  publication_status: string | null;
  revision_count: number;
  previous_value: string | null;
  ingested_at: string;
}

describe("observation vintages through a sequence of fetches", () => {
  let standin: PublisherStandin;
  const dataDir = tempDir("vintage-sequence");
  const registry = readRegistrySources();
  const summaries: IngestSummary[] = [];
  const indexRows: { april: IndexRow; march: IndexRow }[] = [];

  beforeAll(async () => {
    standin = await startPublisherStandin();
    for (const [index, { document }] of SEQUENCE.entries()) {
      standin.replace(PUBLISHER_PATHS.blsApi, blsDocument(document));
      const now = FIRST_RUN + index * DAY;
      summaries.push(
        await runIngestion({
          dataDir,
          registry,
          only: ["bls-api"],
          now: () => now,
          progress: () => {},
          mode: {
            kind: "fetch",
            hosts: standin.hosts,
            blsApiKey: null,
            http: { userAgent: "test", timeoutMs: 5000, maxBytes: 1_000_000, retries: 0 },
          },
        }),
      );
      const published = new Database(join(dataDir, "index.sqlite"), { readonly: true });
      try {
        const row = (period: string) =>
          published
            .prepare("SELECT * FROM observations WHERE series_slug = 'us-unemployment-rate' AND reference_period = ?")
            .get(period) as IndexRow;
        indexRows.push({ april: row("2016-04"), march: row("2016-03") });
      } finally {
        published.close();
      }
    }
  });
  afterAll(async () => {
    await standin?.close();
    removeTempDirs();
  });

  it("fetched each document from the publisher's path and published after each run", () => {
    expect(standin.count(PUBLISHER_PATHS.blsApi)).toBe(SEQUENCE.length);
    expect(standin.count()).toBe(SEQUENCE.length);
    expect(summaries.map((summary) => [summary.outcome, summary.published])).toEqual(
      SEQUENCE.map(() => ["succeeded", true]),
    );
  });

  it("appends a vintage for a new, a revised and a status-changed value only", () => {
    expect(summaries.map((summary) => summary.totals.vintagesAppended)).toEqual(SEQUENCE.map((item) => item.appended));
  });

  it("keeps every earlier vintage with its own sequence", () => {
    const store = new Database(join(dataDir, "store.sqlite"), { readonly: true });
    try {
      const vintages = store
        .prepare(`SELECT reference_period, sequence, value, publication_status, ingested_at FROM vintages
        WHERE series_slug = 'us-unemployment-rate' ORDER BY reference_period, sequence`)
        .all();
      expect(vintages).toEqual([
        { reference_period: "2016-03", sequence: 1, value: "5.0", publication_status: null, ingested_at: runTime(0) },
        // The first text stays as published: the reformatted "5" of step 3 did not replace "5.0".
        { reference_period: "2016-04", sequence: 1, value: "5.0", publication_status: "P", ingested_at: runTime(0) },
        { reference_period: "2016-04", sequence: 2, value: "5.1", publication_status: "P", ingested_at: runTime(3) },
        { reference_period: "2016-04", sequence: 3, value: "5.1", publication_status: null, ingested_at: runTime(4) },
      ]);
    } finally {
      store.close();
    }
  });

  it("publishes the current vintage with its revision count and the value it replaced", () => {
    const april = indexRows.map(({ april }) => [
      april.value,
      april.publication_status,
      april.revision_count,
      april.previous_value,
    ]);
    expect(april).toEqual([
      ["5.0", "P", 0, null],
      ["5.0", "P", 0, null],
      ["5.0", "P", 0, null],
      ["5.1", "P", 1, "5.0"],
      ["5.1", null, 2, "5.1"],
    ]);
    expect(indexRows.map(({ march }) => [march.value, march.revision_count, march.previous_value])).toEqual(
      SEQUENCE.map(() => ["5.0", 0, null]),
    );
  });

  it("serves isRevision and previousValue on the public observations route", async () => {
    const service = await startService({ seedDataDir: dataDir });
    try {
      const response = await service.request("/api/public/v1/economics/observations?series=us-unemployment-rate");
      expect(response.status).toBe(200);
      expect(response.body.data.observations).toEqual([
        expect.objectContaining({
          referencePeriod: "2016-03",
          value: "5.0",
          revisionCount: 0,
          isRevision: false,
          previousValue: null,
          publicationStatus: null,
        }),
        expect.objectContaining({
          referencePeriod: "2016-04",
          value: "5.1",
          revisionCount: 2,
          isRevision: true,
          previousValue: "5.1",
          publicationStatus: null,
          ingestedAt: runTime(4),
        }),
      ]);
    } finally {
      await service.close();
    }
  });
});

describe("a verified value as evidence of publication", () => {
  afterAll(removeTempDirs);

  it("confirms the event of its release and period once the event's date has come, without touching its status", async () => {
    const registry = readRegistrySources();
    const release = registry.releases.find((candidate) => candidate.slug === "eurostat-unemployment")!;
    const series = registry.series.find((candidate) => candidate.slug === release.seriesSlugs[0])!;
    expect(series.upstream?.api).toBe("eurostat-sdmx");
    const dataDir = tempDir("value-evidence");
    const store = openStore(join(dataDir, "store.sqlite"));
    try {
      applyCalendarSnapshot(
        store,
        createReleaseResolver(registry),
        "eu-stats-release-calendar",
        [
          {
            source: "eu-stats-release-calendar",
            sourceEventId: "990001",
            title: "Unemployment",
            scheduledDate: "2026-03-04",
            scheduledAt: null,
            timePrecision: "DATE_ONLY",
            sourceTimezone: "Europe/Luxembourg",
            referencePeriodText: "January 2026",
            sourceStatus: "SCHEDULED",
            sourceUrl: null,
            referencePeriod: { kind: "MONTH", code: "2026-01", startDate: "2026-01-01", endDate: "2026-01-31" },
          },
        ],
        { runId: "run_calendar", at: "2026-02-20T06:00:00.000Z" },
      );
      const value = (text: string) => [
        {
          api: "eurostat-sdmx" as const,
          seriesId: upstreamSeriesKey(series.upstream!),
          referencePeriod: "2026-01",
          value: text,
          publicationStatus: null,
          sourceUpdatedAt: null,
          note: null,
          adapter: "eurostat-sdmx-csv",
          transformation: [],
        },
      ];
      const index = createSeriesIndex(registry);

      // A value seen the day before the event's date belongs to an earlier release: no evidence for this event.
      expect(
        applyObservations(store, index, value("6.2"), { runId: "run_early", at: "2026-03-03T10:00:00.000Z" }, null),
      ).toMatchObject({ appended: 1, evidence: 0 });
      const onTheDay = { runId: "run_on_the_day", at: "2026-03-04T10:30:00.000Z" };
      expect(applyObservations(store, index, value("6.3"), onTheDay, null)).toMatchObject({ appended: 1, evidence: 1 });
      expect(
        applyObservations(store, index, value("6.30"), { runId: "run_later", at: "2026-03-05T10:30:00.000Z" }, null),
      ).toMatchObject({ appended: 0, evidence: 0 });

      const evidence = store.db.prepare("SELECT kind, observed_at, released_at FROM evidence").all();
      expect(evidence).toEqual([{ kind: "VERIFIED_VALUE", observed_at: onTheDay.at, released_at: null }]);

      const published = new Database(
        await publishIndex(store, registry, dataDir, {
          publishedAt: onTheDay.at,
          lastIngestedAt: onTheDay.at,
          lastSuccessfulIngestionAt: onTheDay.at,
        }),
        { readonly: true },
      );
      try {
        const row = published.prepare("SELECT status, confirmed, record FROM events").get() as {
          status: string;
          confirmed: number;
          record: string;
        };
        expect(row.status).toBe("SCHEDULED");
        expect(row.confirmed).toBe(1);
        const record = JSON.parse(row.record);
        expect(record.publication).toMatchObject({ confirmed: true, releasedAt: null, detectedAt: onTheDay.at });
        expect(record.values).toMatchObject({
          availability: "AVAILABLE",
          actual: { seriesSlug: series.slug, referencePeriod: "2026-01", value: "6.3" },
        });
      } finally {
        published.close();
      }
    } finally {
      store.close();
    }
  });
});
