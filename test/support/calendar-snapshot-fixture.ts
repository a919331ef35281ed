import { join } from "node:path";
import type { RunContext } from "../../cli/ingest/apply-calendar.ts";
import { openStore, type Store, type StoredEvent } from "../../cli/ingest/ledger/store.ts";
import type { SourceEvent } from "../../cli/ingest/records.ts";
import { createReleaseResolver } from "../../cli/ingest/release-matching.ts";
import type { Registry, Release } from "../../schemas/registry.ts";
import type { CalendarSource } from "../../schemas/vocabularies.ts";
import { removeTempDirs, tempDir } from "../ingest/cli-process.ts";

/** A small registry of our own: three releases, one of them described by two calendar sources. */
function release(
  slug: string,
  titlePatterns: Release["titlePatterns"],
  publisher: Release["publisher"] = "BLS",
): Release {
  return {
    slug,
    name: slug,
    publisher,
    officialPageUrl: `https://example.org/${slug}`,
    country: publisher === "BLS" ? "US" : null,
    region: publisher === "BLS" ? null : "EA",
    currency: publisher === "BLS" ? "USD" : "EUR",
    category: "PRICES",
    importance: "HIGH",
    importanceBasis: "test",
    seriesSlugs: [],
    headlineSeriesSlugs: [],
    titlePatterns,
  };
}

export const REGISTRY: Registry = {
  families: [],
  series: [],
  releases: [
    release("test-us-cpi", { "labour-stats-release-schedule": ["^\\s*Consumer Price Index\\s*$"] }),
    release("test-us-jobs", { "labour-stats-release-schedule": ["^\\s*Employment Situation\\s*$"] }),
    release(
      "test-ea-hicp",
      {
        "eu-stats-release-calendar": ["^\\s*Inflation \\(HICP\\)\\s*$"],
        "central-bank-statistics-calendar": ["^\\s*HICP flash estimate\\b"],
      },
      "EUROSTAT",
    ),
  ],
};
export const match = createReleaseResolver(REGISTRY);

export const BLS: CalendarSource = "labour-stats-release-schedule";
export const EUROSTAT: CalendarSource = "eu-stats-release-calendar";
export const ECB_STATS: CalendarSource = "central-bank-statistics-calendar";

export function event(
  source: CalendarSource,
  sourceEventId: string,
  title: string,
  scheduledDate: string,
  scheduledAt: string | null,
  extra: Partial<SourceEvent> = {},
): SourceEvent {
  return {
    source,
    sourceEventId,
    title,
    scheduledDate,
    scheduledAt,
    timePrecision: scheduledAt ? "EXACT_TIME" : "DATE_ONLY",
    sourceTimezone: source === BLS ? "America/New_York" : "Europe/Luxembourg",
    referencePeriod: null,
    referencePeriodText: null,
    sourceStatus: "SCHEDULED",
    sourceUrl: null,
    ...extra,
  };
}

/** A BLS-style snapshot: two curated releases, one title the registry does not curate, spread over January to March. */
export const jobsJan = event(BLS, "uid-jobs-jan", "Employment Situation", "2026-01-09", "2026-01-09T13:30:00.000Z");
export const cpiJan = event(BLS, "uid-cpi-jan", "Consumer Price Index", "2026-01-13", "2026-01-13T13:30:00.000Z");
export const unrelated = event(
  BLS,
  "uid-other",
  "County Employment and Wages",
  "2026-01-20",
  "2026-01-20T15:00:00.000Z",
);
export const cpiFeb = event(BLS, "uid-cpi-feb", "Consumer Price Index", "2026-02-11", "2026-02-11T13:30:00.000Z");
export const cpiMar = event(BLS, "uid-cpi-mar", "Consumer Price Index", "2026-03-11", "2026-03-11T12:30:00.000Z");
export const SNAPSHOT = [jobsJan, cpiJan, unrelated, cpiFeb, cpiMar];

let runs = 0;
export function run(at: string): RunContext {
  return { runId: `run_test_${++runs}`, at };
}

export const events = (store: Store) =>
  store.db.prepare("SELECT * FROM events ORDER BY scheduled_date, id").all() as StoredEvent[];
export const eventOf = (store: Store, source: string, sourceEventId: string) =>
  store.event(store.eventSource(source, sourceEventId)!.event_id)!;
export const changesOf = (store: Store, eventId: string) =>
  store.db
    .prepare("SELECT field, old_value, new_value, run_id FROM event_changes WHERE event_id = ? ORDER BY rowid")
    .all(eventId) as { field: string; old_value: string | null; new_value: string | null; run_id: string }[];
export const allChanges = (store: Store) =>
  store.db.prepare("SELECT count(*) FROM event_changes").pluck().get() as number;

/** Stores opened in fresh temporary directories; `closeAll` (a test file's afterEach) closes them and removes those. */
export function storePool(): { fresh: () => Store; closeAll: () => void } {
  const stores: Store[] = [];
  return {
    fresh() {
      const store = openStore(join(tempDir("calendar-snapshots"), "store.sqlite"));
      stores.push(store);
      return store;
    },
    closeAll() {
      for (const store of stores.splice(0)) store.close();
      removeTempDirs();
    },
  };
}
