import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { applyCalendarSnapshot, stableEventId } from "../../cli/ingest/apply-calendar.ts";
import { publishIndex } from "../../cli/ingest/index/publish-index.ts";
import {
  allChanges,
  BLS,
  changesOf,
  cpiFeb,
  cpiMar,
  EUROSTAT,
  event,
  eventOf,
  events,
  jobsJan,
  match,
  REGISTRY,
  run,
  SNAPSHOT,
  storePool,
  unrelated,
} from "../support/calendar-snapshot-fixture.ts";
import { tempDir } from "./cli-process.ts";

const stores = storePool();
const freshStore = stores.fresh;
afterEach(stores.closeAll);

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
});
