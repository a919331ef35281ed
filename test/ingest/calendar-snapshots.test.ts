import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { applyCalendarSnapshot, type RunContext, stableEventId } from "../../cli/ingest/apply-calendar.ts";
import { publishIndex } from "../../cli/ingest/index/publish-index.ts";
import { openStore, type Store, type StoredEvent } from "../../cli/ingest/ledger/store.ts";
import type { SourceEvent } from "../../cli/ingest/records.ts";
import { createReleaseResolver } from "../../cli/ingest/release-matching.ts";
import type { Registry, Release } from "../../schemas/registry.ts";
import type { CalendarSource } from "../../schemas/vocabularies.ts";
import { removeTempDirs, tempDir } from "./cli-process.ts";

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

const REGISTRY: Registry = {
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
const match = createReleaseResolver(REGISTRY);

const BLS: CalendarSource = "labour-stats-release-schedule";
const EUROSTAT: CalendarSource = "eu-stats-release-calendar";
const ECB_STATS: CalendarSource = "central-bank-statistics-calendar";

function event(
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
const jobsJan = event(BLS, "uid-jobs-jan", "Employment Situation", "2026-01-09", "2026-01-09T13:30:00.000Z");
const cpiJan = event(BLS, "uid-cpi-jan", "Consumer Price Index", "2026-01-13", "2026-01-13T13:30:00.000Z");
const unrelated = event(BLS, "uid-other", "County Employment and Wages", "2026-01-20", "2026-01-20T15:00:00.000Z");
const cpiFeb = event(BLS, "uid-cpi-feb", "Consumer Price Index", "2026-02-11", "2026-02-11T13:30:00.000Z");
const cpiMar = event(BLS, "uid-cpi-mar", "Consumer Price Index", "2026-03-11", "2026-03-11T12:30:00.000Z");
const SNAPSHOT = [jobsJan, cpiJan, unrelated, cpiFeb, cpiMar];

let runs = 0;
function run(at: string): RunContext {
  return { runId: `run_test_${++runs}`, at };
}

const stores: Store[] = [];
function freshStore(): Store {
  const dir = tempDir("calendar-snapshots");
  const store = openStore(join(dir, "store.sqlite"));
  stores.push(store);
  return store;
}
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  removeTempDirs();
});

const events = (store: Store) =>
  store.db.prepare("SELECT * FROM events ORDER BY scheduled_date, id").all() as StoredEvent[];
const eventOf = (store: Store, source: string, sourceEventId: string) =>
  store.event(store.eventSource(source, sourceEventId)!.event_id)!;
const changesOf = (store: Store, eventId: string) =>
  store.db
    .prepare("SELECT field, old_value, new_value, run_id FROM event_changes WHERE event_id = ? ORDER BY rowid")
    .all(eventId) as { field: string; old_value: string | null; new_value: string | null; run_id: string }[];
const allChanges = (store: Store) => store.db.prepare("SELECT count(*) FROM event_changes").pluck().get() as number;

describe("applyCalendarSnapshot", () => {
  it("creates one event per record, curated or not, with ids stable across runs and across stores", () => {
    const store = freshStore();
    const first = applyCalendarSnapshot(store, match, BLS, SNAPSHOT, run("2026-01-01T06:00:00.000Z"));
    expect(first).toMatchObject({
      received: 5,
      uncurated: 1,
      skipped: 0,
      created: 5,
      attached: 0,
      changed: 0,
      unchanged: 0,
      cancelled: 0,
    });
    const ids = events(store).map((row) => row.id);
    expect(ids).toHaveLength(5);
    expect(eventOf(store, BLS, "uid-cpi-jan").id).toBe(stableEventId(BLS, "uid-cpi-jan"));
    expect(events(store).map((row) => [row.release_slug, row.status])).toEqual([
      ["test-us-jobs", "SCHEDULED"],
      ["test-us-cpi", "SCHEDULED"],
      ["bls-county-employment-and-wages", "SCHEDULED"],
      ["test-us-cpi", "SCHEDULED"],
      ["test-us-cpi", "SCHEDULED"],
    ]);

    const second = applyCalendarSnapshot(store, match, BLS, SNAPSHOT, run("2026-01-02T06:00:00.000Z"));
    expect(second).toMatchObject({ created: 0, unchanged: 5, changed: 0, cancelled: 0 });
    expect(events(store).map((row) => row.id)).toEqual(ids);
    expect(allChanges(store)).toBe(0);

    const elsewhere = freshStore();
    applyCalendarSnapshot(elsewhere, match, BLS, SNAPSHOT, run("2026-02-01T06:00:00.000Z"));
    expect(events(elsewhere).map((row) => row.id)).toEqual(ids);
  });

  it("marks a moved event RESCHEDULED, keeps its id and records what changed", () => {
    const store = freshStore();
    applyCalendarSnapshot(store, match, BLS, SNAPSHOT, run("2026-01-01T06:00:00.000Z"));
    const before = eventOf(store, BLS, "uid-cpi-jan");
    const moved = event(BLS, "uid-cpi-jan", "Consumer Price Index", "2026-01-14", "2026-01-14T13:30:00.000Z");
    const movingRun = run("2026-01-05T06:00:00.000Z");
    const counts = applyCalendarSnapshot(store, match, BLS, [jobsJan, moved, unrelated, cpiFeb, cpiMar], movingRun);
    expect(counts).toMatchObject({ changed: 1, unchanged: 4, created: 0, cancelled: 0 });

    const after = eventOf(store, BLS, "uid-cpi-jan");
    expect(after.id).toBe(before.id);
    expect(after).toMatchObject({
      status: "RESCHEDULED",
      scheduled_date: "2026-01-14",
      scheduled_at: "2026-01-14T13:30:00.000Z",
      updated_at: movingRun.at,
    });
    expect(changesOf(store, after.id)).toEqual([
      { field: "scheduled_date", old_value: "2026-01-13", new_value: "2026-01-14", run_id: movingRun.runId },
      {
        field: "scheduled_at",
        old_value: "2026-01-13T13:30:00.000Z",
        new_value: "2026-01-14T13:30:00.000Z",
        run_id: movingRun.runId,
      },
      { field: "status", old_value: "SCHEDULED", new_value: "RESCHEDULED", run_id: movingRun.runId },
    ]);
    expect(store.eventSource(BLS, "uid-cpi-jan")).toMatchObject({
      scheduled_date: "2026-01-14",
      first_seen_at: "2026-01-01T06:00:00.000Z",
      last_seen_at: movingRun.at,
    });
    expect(events(store)).toHaveLength(5);

    // Seen again at the new date: nothing more changes and it stays RESCHEDULED.
    expect(
      applyCalendarSnapshot(
        store,
        match,
        BLS,
        [jobsJan, moved, unrelated, cpiFeb, cpiMar],
        run("2026-01-06T06:00:00.000Z"),
      ),
    ).toMatchObject({ changed: 0, unchanged: 5 });
    expect(eventOf(store, BLS, "uid-cpi-jan").status).toBe("RESCHEDULED");
    expect(changesOf(store, after.id)).toHaveLength(3);
  });

  it("a time added to a date-only event is a move too", () => {
    const store = freshStore();
    const dateOnly = event(EUROSTAT, "rec-1", "Inflation (HICP)", "2026-02-03", null);
    applyCalendarSnapshot(store, match, EUROSTAT, [dateOnly], run("2026-01-01T06:00:00.000Z"));
    applyCalendarSnapshot(
      store,
      match,
      EUROSTAT,
      [{ ...dateOnly, scheduledAt: "2026-02-03T10:00:00.000Z", timePrecision: "EXACT_TIME" }],
      run("2026-01-02T06:00:00.000Z"),
    );
    expect(eventOf(store, EUROSTAT, "rec-1")).toMatchObject({
      status: "RESCHEDULED",
      scheduled_at: "2026-02-03T10:00:00.000Z",
      time_precision: "EXACT_TIME",
    });
  });

  it("keeps SCHEDULED when the clock moves far past the date and nothing else changed, in the store and in the index", async () => {
    const store = freshStore();
    applyCalendarSnapshot(store, match, BLS, SNAPSHOT, run("2026-01-01T06:00:00.000Z"));
    const later = applyCalendarSnapshot(store, match, BLS, SNAPSHOT, run("2031-07-01T06:00:00.000Z"));
    expect(later).toMatchObject({ changed: 0, unchanged: 5, cancelled: 0 });
    expect(events(store).map((row) => row.status)).toEqual([
      "SCHEDULED",
      "SCHEDULED",
      "SCHEDULED",
      "SCHEDULED",
      "SCHEDULED",
    ]);
    expect(allChanges(store)).toBe(0);

    const dataDir = tempDir("calendar-index");
    const path = await publishIndex(store, { ...REGISTRY, builtAt: "2031-07-01T06:00:00.000Z" }, dataDir, {
      publishedAt: "2031-07-01T06:00:00.000Z",
      lastIngestedAt: "2031-07-01T06:00:00.000Z",
      lastSuccessfulIngestionAt: "2031-07-01T06:00:00.000Z",
    });
    const index = new Database(path, { readonly: true });
    try {
      const rows = index.prepare("SELECT status, confirmed, record FROM events").all() as {
        status: string;
        confirmed: number;
        record: string;
      }[];
      expect(rows.map((row) => [row.status, row.confirmed])).toEqual([
        ["SCHEDULED", 0],
        ["SCHEDULED", 0],
        ["SCHEDULED", 0],
        ["SCHEDULED", 0],
        ["SCHEDULED", 0],
      ]);
      expect(rows.map((row) => JSON.parse(row.record).status)).toEqual([
        "SCHEDULED",
        "SCHEDULED",
        "SCHEDULED",
        "SCHEDULED",
        "SCHEDULED",
      ]);
    } finally {
      index.close();
    }
  });

  it("attaches a second source describing the same release on the same date to the canonical event", () => {
    const store = freshStore();
    const eurostat = event(EUROSTAT, "15586146", "Inflation (HICP)", "2026-02-03", null, {
      referencePeriod: { kind: "MONTH", code: "2026-01", startDate: "2026-01-01", endDate: "2026-01-31" },
      referencePeriodText: "January 2026",
    });
    const ecb = event(
      ECB_STATS,
      "ecb-hicp-2026-01",
      "HICP flash estimate (Dataset: ICP)",
      "2026-02-03",
      "2026-02-03T10:00:00.000Z",
      { sourceTimezone: "Europe/Berlin" },
    );
    expect(applyCalendarSnapshot(store, match, EUROSTAT, [eurostat], run("2026-01-10T06:00:00.000Z"))).toMatchObject({
      created: 1,
    });
    const attaching = applyCalendarSnapshot(store, match, ECB_STATS, [ecb], run("2026-01-10T07:00:00.000Z"));
    expect(attaching).toMatchObject({ created: 0, attached: 1 });

    expect(events(store)).toHaveLength(1);
    const canonical = events(store)[0]!;
    expect(canonical.id).toBe(stableEventId(EUROSTAT, "15586146"));
    const references = store
      .sourcesOfEvent(canonical.id)
      .map((row) => [row.source, row.source_event_id])
      .sort();
    expect(references).toEqual(
      [
        [EUROSTAT, "15586146"],
        [ECB_STATS, "ecb-hicp-2026-01"],
      ].sort(),
    );
    // The second source supplied the time the first did not have; the date stays; nothing is invented.
    expect(canonical).toMatchObject({
      scheduled_date: "2026-02-03",
      scheduled_at: "2026-02-03T10:00:00.000Z",
      status: "SCHEDULED",
    });
    expect(JSON.parse(canonical.reference_period!)).toMatchObject({ code: "2026-01" });

    // Both sources again, in either order: still one event, two references, nothing changed.
    expect(applyCalendarSnapshot(store, match, ECB_STATS, [ecb], run("2026-01-11T06:00:00.000Z"))).toMatchObject({
      created: 0,
      attached: 0,
      unchanged: 1,
    });
    expect(applyCalendarSnapshot(store, match, EUROSTAT, [eurostat], run("2026-01-11T07:00:00.000Z"))).toMatchObject({
      created: 0,
      attached: 0,
    });
    expect(events(store)).toHaveLength(1);
    expect(store.db.prepare("SELECT count(*) FROM event_sources").pluck().get()).toBe(2);

    // A fresh store fed in the same order gives the same canonical id.
    const elsewhere = freshStore();
    applyCalendarSnapshot(elsewhere, match, EUROSTAT, [eurostat], run("2026-03-01T06:00:00.000Z"));
    applyCalendarSnapshot(elsewhere, match, ECB_STATS, [ecb], run("2026-03-01T07:00:00.000Z"));
    expect(events(elsewhere).map((row) => row.id)).toEqual([canonical.id]);
  });

  it("cancels an event that vanished from the dates a later snapshot covers, and leaves events outside them alone", () => {
    const store = freshStore();
    applyCalendarSnapshot(store, match, BLS, SNAPSHOT, run("2026-01-01T06:00:00.000Z"));
    const december = event(BLS, "uid-cpi-dec", "Consumer Price Index", "2025-12-10", "2025-12-10T13:30:00.000Z");
    applyCalendarSnapshot(store, match, BLS, [december], run("2026-01-01T07:00:00.000Z"));

    // The later snapshot covers 2026-01-09 .. 2026-02-11.
    const cancelling = run("2026-01-07T06:00:00.000Z");
    const counts = applyCalendarSnapshot(store, match, BLS, [jobsJan, unrelated, cpiFeb], cancelling);
    expect(counts).toMatchObject({ cancelled: 1, unchanged: 3, created: 0 });

    const gone = eventOf(store, BLS, "uid-cpi-jan");
    expect(gone).toMatchObject({ status: "CANCELLED", withdrawn_at: cancelling.at });
    expect(changesOf(store, gone.id)).toEqual([
      { field: "status", old_value: "SCHEDULED", new_value: "CANCELLED", run_id: cancelling.runId },
      { field: "withdrawn_at", old_value: null, new_value: cancelling.at, run_id: cancelling.runId },
    ]);
    // Outside the covered dates: March (after) and December (before) are untouched.
    expect(eventOf(store, BLS, "uid-cpi-mar")).toMatchObject({
      status: "SCHEDULED",
      withdrawn_at: null,
      updated_at: "2026-01-01T06:00:00.000Z",
    });
    expect(eventOf(store, BLS, "uid-cpi-dec")).toMatchObject({ status: "SCHEDULED", withdrawn_at: null });
    expect(eventOf(store, BLS, "uid-jobs-jan").status).toBe("SCHEDULED");

    // Cancelling is not repeated, and the event comes back if the source lists it again.
    expect(
      applyCalendarSnapshot(store, match, BLS, [jobsJan, unrelated, cpiFeb], run("2026-01-08T06:00:00.000Z")),
    ).toMatchObject({ cancelled: 0 });
    applyCalendarSnapshot(store, match, BLS, SNAPSHOT, run("2026-01-09T06:00:00.000Z"));
    expect(eventOf(store, BLS, "uid-cpi-jan")).toMatchObject({ status: "SCHEDULED", withdrawn_at: null, id: gone.id });
  });

  it("does not cancel a canonical event that another source still lists", () => {
    const store = freshStore();
    const eurostat = event(EUROSTAT, "rec-hicp", "Inflation (HICP)", "2026-02-03", null);
    const eurostatOther = event(EUROSTAT, "rec-other", "Something else entirely", "2026-02-20", null);
    const ecb = event(ECB_STATS, "ecb-hicp", "HICP flash estimate", "2026-02-03", null);
    applyCalendarSnapshot(store, match, EUROSTAT, [eurostat, eurostatOther], run("2026-01-01T06:00:00.000Z"));
    applyCalendarSnapshot(store, match, ECB_STATS, [ecb], run("2026-01-01T07:00:00.000Z"));
    const counts = applyCalendarSnapshot(
      store,
      match,
      EUROSTAT,
      [event(EUROSTAT, "rec-x", "Something", "2026-02-01", null), eurostatOther],
      run("2026-01-02T06:00:00.000Z"),
    );
    expect(counts.cancelled).toBe(0);
    expect(events(store).map((row) => row.status)).toEqual(["SCHEDULED", "SCHEDULED", "SCHEDULED"]);
  });

  it("takes PUBLISHED from the source, with the source calendar as evidence, and never cancels it", () => {
    const store = freshStore();
    const publishedNew = event(BLS, "uid-jobs-dec", "Employment Situation", "2025-12-05", "2025-12-05T13:30:00.000Z", {
      sourceStatus: "PUBLISHED",
      sourceUrl: "https://example.org/jobs-dec",
    });
    const firstRun = run("2026-01-01T06:00:00.000Z");
    applyCalendarSnapshot(store, match, BLS, [publishedNew, ...SNAPSHOT], firstRun);
    const published = eventOf(store, BLS, "uid-jobs-dec");
    expect(published.status).toBe("PUBLISHED");
    const evidenceOf = (id: string) =>
      store.db.prepare("SELECT kind, observed_at, url FROM evidence WHERE event_id = ?").all(id);
    expect(evidenceOf(published.id)).toEqual([
      { kind: "SOURCE_CALENDAR", observed_at: firstRun.at, url: "https://example.org/jobs-dec" },
    ]);

    // A known event the source now says happened.
    const saying = run("2026-01-14T06:00:00.000Z");
    applyCalendarSnapshot(
      store,
      match,
      BLS,
      [publishedNew, jobsJan, { ...cpiJan, sourceStatus: "PUBLISHED" }, unrelated, cpiFeb, cpiMar],
      saying,
    );
    const cpi = eventOf(store, BLS, "uid-cpi-jan");
    expect(cpi.status).toBe("PUBLISHED");
    expect(changesOf(store, cpi.id)).toEqual([
      { field: "status", old_value: "SCHEDULED", new_value: "PUBLISHED", run_id: saying.runId },
    ]);
    expect(evidenceOf(cpi.id)).toEqual([{ kind: "SOURCE_CALENDAR", observed_at: saying.at, url: null }]);

    // Said again: no second evidence row; dropped later from the covered dates: still PUBLISHED.
    applyCalendarSnapshot(
      store,
      match,
      BLS,
      [publishedNew, jobsJan, { ...cpiJan, sourceStatus: "PUBLISHED" }, unrelated, cpiFeb, cpiMar],
      run("2026-01-15T06:00:00.000Z"),
    );
    expect(evidenceOf(cpi.id)).toHaveLength(1);
    applyCalendarSnapshot(
      store,
      match,
      BLS,
      [publishedNew, jobsJan, unrelated, cpiFeb],
      run("2026-01-16T06:00:00.000Z"),
    );
    expect(eventOf(store, BLS, "uid-cpi-jan").status).toBe("PUBLISHED");
    expect(eventOf(store, BLS, "uid-jobs-jan").status).toBe("SCHEDULED");
  });
});
