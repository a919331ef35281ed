import { afterEach, describe, expect, it } from "vitest";
import { applyCalendarSnapshot, stableEventId } from "../../cli/ingest/apply-calendar.ts";
import {
  BLS,
  changesOf,
  cpiFeb,
  cpiJan,
  cpiMar,
  ECB_STATS,
  EUROSTAT,
  event,
  eventOf,
  events,
  jobsJan,
  match,
  run,
  SNAPSHOT,
  storePool,
  unrelated,
} from "../support/calendar-snapshot-fixture.ts";

const stores = storePool();
const freshStore = stores.fresh;
afterEach(stores.closeAll);

describe("applyCalendarSnapshot", () => {
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
