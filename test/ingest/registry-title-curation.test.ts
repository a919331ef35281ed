import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEurostatReleaseCalendar } from "../../cli/ingest/adapters/eurostat-release-calendar.ts";
import { createReleaseResolver } from "../../cli/ingest/release-matching.ts";
import { type CalendarSourceDefinition, SOURCES } from "../../cli/ingest/sources.ts";
import { uncuratedSlug } from "../../cli/ingest/uncurated-releases.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import type { CalendarSource } from "../../schemas/vocabularies.ts";
import { runIngestion } from "../support/compiled-ingestion.ts";
import { removeTempDirs, SAMPLES_DIR, tempDir } from "./cli-process.ts";

afterAll(removeTempDirs);

/**
 * The registry's title patterns against the titles the recorded calendars really carry (data/samples): Eurostat's
 * October–December 2026 euro-indicator calendar names its GDP release "GDP main aggregates and employment", which the
 * registry curates; every pattern matches a real title; no title is claimed by two releases of one source.
 */

const registry = readRegistrySources(new Date("2026-09-12T00:00:00Z"));
const EUROSTAT: CalendarSource = "eu-stats-release-calendar";
const Q4_2026 = "eurostat-release-calendar-retrieved-2026-09-12-for-2026-10-01_2027-01-01.json";
const CALENDARS = SOURCES.filter((source): source is CalendarSourceDefinition => source.kind === "calendar");

/** Every event title of every recorded document of a calendar source, as its adapter reads them. */
function recordedTitles(source: CalendarSourceDefinition): Set<string> {
  const folder = join(SAMPLES_DIR, source.slug);
  const titles = new Set<string>();
  for (const name of readdirSync(folder).filter((file) => !file.endsWith(".md") && !file.endsWith(".fetch.json"))) {
    for (const event of source.parse(readFileSync(join(folder, name)), "2026-09-12T00:00:00.000Z").events)
      titles.add(event.title);
  }
  return titles;
}

describe("Eurostat's October–December 2026 calendar against the registry", () => {
  const resolve = createReleaseResolver(registry);
  const titles = new Set(
    parseEurostatReleaseCalendar(
      readFileSync(join(SAMPLES_DIR, EUROSTAT, Q4_2026)),
      "2026-09-12T00:00:00.000Z",
    ).events.map((event) => event.title),
  );

  it("curates the headline euro indicators the registry has releases for, each under its release", () => {
    const expected: [string, string][] = [
      ["Flash estimate inflation euro area", "eurostat-hicp-flash-estimate"],
      ["Inflation (HICP)", "eurostat-hicp"],
      ["Unemployment", "eurostat-unemployment"],
      ["Industrial production", "eurostat-industrial-production"],
      ["Industrial producer prices, domestic market", "eurostat-industrial-producer-prices"],
      ["Retail trade", "eurostat-retail-trade"],
      ["International trade in goods", "eurostat-international-trade-in-goods"],
      ["Preliminary flash estimate GDP - EU and euro area", "eurostat-gdp-preliminary-flash-estimate"],
      ["Flash estimate GDP and employment - EU and euro area", "eurostat-gdp-and-employment-flash-estimate"],
      ["GDP main aggregates and employment", "eurostat-gdp-and-employment"],
    ];
    for (const [title, slug] of expected) {
      expect(titles.has(title), title).toBe(true);
      expect(resolve(EUROSTAT, title), title).toMatchObject({ curated: true, release: { slug } });
    }
  });

  it("registers each curated release's series from a dataset the calendar itself names for that release", () => {
    // The calendar's records list the datasets each release updates (`datasetCodes`), read here from the raw document.
    const records = JSON.parse(readFileSync(join(SAMPLES_DIR, EUROSTAT, Q4_2026), "utf8")) as {
      title: string;
      datasetCodes?: string;
    }[];
    const series = new Map(registry.series.map((entry) => [entry.slug, entry]));
    // Eurostat's calendar still lists the ECOICOP ver. 1 dataset prc_hicp_manr for the HICP releases, which ended at
    // 2025-12 (data/registry/README.md, review points); the registry follows its successor.
    const successors: Record<string, string> = { prc_hicp_minr: "prc_hicp_manr" };
    for (const release of registry.releases) {
      const patterns = (release.titlePatterns[EUROSTAT] ?? []).map((pattern) => new RegExp(pattern, "i"));
      if (patterns.length === 0) continue;
      const named = new Set(
        records
          .filter((record) => patterns.some((pattern) => pattern.test(record.title)))
          .flatMap((record) => record.datasetCodes?.split(",") ?? []),
      );
      for (const slug of release.seriesSlugs) {
        const dataset = series.get(slug)!.upstream!.id;
        expect(
          named.has(dataset) || named.has(successors[dataset] ?? ""),
          `${release.slug}: ${slug} (${dataset})`,
        ).toBe(true);
      }
    }
    expect(resolve(EUROSTAT, "International trade in goods").release.seriesSlugs).toEqual([
      "ea-trade-in-goods-balance-extra-euro-area",
    ]);
  });

  it("leaves the GDP dataset refresh and the releases the registry does not hold uncurated", () => {
    for (const title of ["GDP main aggregates and employment - update", "Production in construction"]) {
      expect(titles.has(title), title).toBe(true);
      expect(resolve(EUROSTAT, title).curated, title).toBe(false);
    }
  });

  describe("ingested", () => {
    const dataDir = tempDir("title-curation");
    beforeAll(async () => {
      const summary = await runIngestion({
        dataDir,
        registry,
        mode: { kind: "archive", dir: SAMPLES_DIR },
        only: [EUROSTAT],
        now: () => Date.parse("2026-09-12T06:00:00.000Z"),
        progress: () => {},
      });
      expect(summary.outcome).toBe("succeeded");
    });

    it("the 7 December 2026 release is an event of eurostat-gdp-and-employment for 2026-Q3, not an uncurated one", () => {
      const db = new Database(join(dataDir, "store.sqlite"), { readonly: true });
      try {
        const rows = db
          .prepare(`SELECT e.release_slug AS release, e.scheduled_date AS date, json_extract(e.reference_period, '$.code') AS period
          FROM events e JOIN event_sources s ON s.event_id = e.id WHERE s.source = ? AND s.title = ?`)
          .all(EUROSTAT, "GDP main aggregates and employment");
        expect(rows).toEqual([{ release: "eurostat-gdp-and-employment", date: "2026-12-07", period: "2026-Q3" }]);
        const curatedSlugs = new Set(registry.releases.map((release) => release.slug));
        const uncurated = db.prepare("SELECT slug FROM uncurated_releases").pluck().all();
        expect(uncurated).not.toContain(uncuratedSlug(EUROSTAT, "GDP main aggregates and employment", curatedSlugs));
        expect(uncurated).toContain(
          uncuratedSlug(EUROSTAT, "GDP main aggregates and employment - update", curatedSlugs),
        );
      } finally {
        db.close();
      }
    });
  });
});

describe("a release the registry takes up after it was first seen uncurated", () => {
  const dataDir = tempDir("taken-up");
  const TRADE = "eurostat-international-trade-in-goods";
  const run = (sources: typeof registry) =>
    runIngestion({
      dataDir,
      registry: sources,
      mode: { kind: "archive", dir: SAMPLES_DIR },
      only: [EUROSTAT],
      now: () => Date.parse("2026-09-12T06:00:00.000Z"),
      progress: () => {},
    });
  /** The served events of the release: their importance, category and the release's page. */
  const servedEvents = () => {
    const index = new Database(join(dataDir, "index.sqlite"), { readonly: true });
    try {
      const records = index.prepare("SELECT record FROM events WHERE release_slug = ?").pluck().all(TRADE) as string[];
      return records
        .map((record) => JSON.parse(record))
        .map(({ importance, category, release }) => ({ importance, category, page: release.officialPageUrl }));
    } finally {
      index.close();
    }
  };

  it("is served with the registry's record from the next run on, under the same slug", async () => {
    const trade = registry.releases.find((release) => release.slug === TRADE)!;
    const without = { ...registry, releases: registry.releases.filter((release) => release !== trade) };
    expect((await run(without)).outcome).toBe("succeeded");
    const before = servedEvents();
    expect(before.length).toBeGreaterThan(0);
    expect(new Set(before.map((event) => event.importance))).toEqual(new Set(["UNCLASSIFIED"]));

    expect((await run(registry)).outcome).toBe("succeeded");
    const after = servedEvents();
    expect(after).toHaveLength(before.length);
    expect(after).toEqual(
      before.map(() => ({ importance: "LOW", category: "EXTERNAL_SECTOR", page: trade.officialPageUrl })),
    );
  });
});

describe("the registry's title patterns and the recorded calendars", () => {
  it("every pattern matches at least one title a recorded calendar carries", () => {
    for (const source of CALENDARS) {
      const titles = [...recordedTitles(source)];
      for (const release of registry.releases) {
        for (const pattern of release.titlePatterns[source.slug as CalendarSource] ?? []) {
          expect(
            titles.some((title) => new RegExp(pattern, "i").test(title)),
            `${release.slug} ${source.slug} ${pattern}`,
          ).toBe(true);
        }
      }
    }
  });

  it("no recorded title is claimed by two releases of the same source", () => {
    for (const source of CALENDARS) {
      for (const title of recordedTitles(source)) {
        const claiming = registry.releases.filter((release) =>
          (release.titlePatterns[source.slug as CalendarSource] ?? []).some((pattern) =>
            new RegExp(pattern, "i").test(title),
          ),
        );
        expect(claiming.length, `${source.slug}: ${title}`).toBeLessThanOrEqual(1);
      }
    }
  });
});
