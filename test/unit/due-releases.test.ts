import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { dueState } from "../../cli/ingest/due/due-releases.ts";
import { nothingDueLine, planRun } from "../../cli/ingest/due/due-run.ts";
import { dueDeadlineMsFrom, ingestClockFrom } from "../../cli/ingest/due/due-settings.ts";
import { keepSourceWait } from "../../cli/ingest/due/source-waits.ts";
import { openStore, type StoredEvent } from "../../cli/ingest/ledger/store.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";

const registry = readRegistrySources();
const dataDir = mkdtempSync(join(tmpdir(), "due-releases-"));
const HOURS_2 = 2 * 3600_000;

function event(fields: Partial<StoredEvent> & Pick<StoredEvent, "id" | "release_slug">): StoredEvent {
  return {
    title: fields.release_slug,
    scheduled_date: "2026-10-01",
    scheduled_at: null,
    time_precision: "DATE_ONLY",
    source_timezone: "Europe/Luxembourg",
    reference_period: null,
    status: "SCHEDULED",
    withdrawn_at: null,
    first_seen_at: "2026-09-01T00:00:00Z",
    updated_at: "2026-09-01T00:00:00Z",
    ...fields,
  };
}

const store = openStore(join(dataDir, "store.sqlite"));
store.insertEvent(event({ id: "e-unemployment", release_slug: "eurostat-unemployment" }));
store.insertEvent(event({ id: "e-cancelled", release_slug: "eurostat-retail-trade", status: "CANCELLED" }));
store.insertEvent(event({ id: "e-no-series", release_slug: "ecb-bank-lending-survey" }));
store.insertEvent(
  event({
    id: "e-cpi",
    release_slug: "bls-consumer-price-index",
    scheduled_date: "2026-10-15",
    scheduled_at: "2026-10-15T12:30:00.000Z",
    time_precision: "EXACT_TIME",
    source_timezone: "America/New_York",
  }),
);
store.close();

describe("which releases are due", () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const at = (instant: string) =>
    dueState(dataDir, registry, { nowMs: Date.parse(instant), deadlineMs: HOURS_2, sources: null });

  it("a date-only release is due from its publisher's customary hour until the deadline, never presented as its time", () => {
    const before = at("2026-10-01T08:59:59Z");
    expect(before.due).toEqual([]);
    expect(before.next).toMatchObject({
      eventId: "e-unemployment",
      scheduledAt: null,
      dueFrom: "2026-10-01T09:00:00Z",
    });
    expect(nothingDueLine(before)).toBe(
      "nothing due until 2026-10-01T09:00:00Z, eurostat-unemployment (eurostat-unemployment, dated 2026-10-01 with no time: asked for from the customary 11:00 Europe/Luxembourg)",
    );
    const due = at("2026-10-01T09:00:00Z").due;
    // Cancelled events and releases with no series to fetch are never due.
    expect(due.map((release) => release.eventId)).toEqual(["e-unemployment"]);
    expect(due[0]).toMatchObject({ sources: ["eurostat-sdmx"], dueUntil: "2026-10-01T11:00:00Z" });
    expect(due[0]!.seriesSlugs).toContain("ea-unemployment-rate");
    expect(at("2026-10-01T10:59:59Z").due).toHaveLength(1);
    const after = at("2026-10-01T11:00:00Z");
    expect(after.due).toEqual([]);
    expect(after.next).toMatchObject({ eventId: "e-cpi", dueFrom: "2026-10-15T12:30:00Z" });
  });

  it("a release with its figures in is neither due nor next", () => {
    const writable = openStore(join(dataDir, "store.sqlite"));
    writable.addEvidence("e-unemployment", "VERIFIED_VALUE", "2026-10-01T09:01:00Z", null, "value", null);
    writable.close();
    expect(at("2026-10-01T09:30:00Z").due).toEqual([]);
    expect(at("2026-09-30T00:00:00Z").next).toMatchObject({ eventId: "e-cpi" });
  });

  it("the derived CPI series brings the index it is computed from into the request", () => {
    const [cpi] = at("2026-10-15T12:31:00Z").due;
    expect(cpi).toMatchObject({ eventId: "e-cpi", sources: ["bls-api"] });
    expect(cpi!.seriesSlugs.sort()).toEqual(
      [
        "us-cpi-all-items-1-month-change-sa",
        "us-cpi-all-items-12-month-change",
        "us-cpi-all-items-nsa",
        "us-cpi-all-items-sa",
      ].sort(),
    );
  });

  it("with no store, or one with no calendar yet, nothing is due and the line says why", () => {
    const noCalendar = "nothing due: the store holds no calendar yet (a full `service ingest` reads it)";
    const query = { nowMs: Date.now(), deadlineMs: HOURS_2, sources: null };
    expect(nothingDueLine(dueState(join(dataDir, "absent"), registry, query))).toBe(noCalendar);
    const empty = join(dataDir, "empty");
    mkdirSync(empty);
    openStore(join(empty, "store.sqlite")).close();
    expect(nothingDueLine(dueState(empty, registry, query))).toBe(noCalendar);
  });
});

describe("a release whose series are derived from inputs alone (the ECB's rate decisions)", () => {
  // The decision of 29 October 2026, dated without a time: asked for from 14:15 Frankfurt time (13:15 UTC in winter).
  const ecbDir = mkdtempSync(join(tmpdir(), "due-inputs-"));
  const path = join(ecbDir, "store.sqlite");
  const DUE_FROM = "2026-10-29T13:15:00Z";
  const writable = openStore(path);
  writable.insertEvent(
    event({
      id: "e-decision",
      release_slug: "ecb-monetary-policy-decision",
      scheduled_date: "2026-10-29",
      source_timezone: "Europe/Berlin",
    }),
  );
  writable.close();
  const INPUTS = ["DFR", "MRR_FR", "MLFR"].map((rate) => `ecb-data:FM.B.U2.EUR.4F.KR.${rate}.LEV`);
  const sight = (key: string, seenAt: string) => {
    const store = openStore(path);
    store.recordSighting({
      series_slug: key,
      reference_period: "2026-10-29",
      seen_at: seenAt,
      source_updated_at: null,
      document_sha256: null,
      run_id: "run_20261029T131600_000000",
    });
    store.close();
  };
  const at = (instant: string, sources: string[] | null = null) =>
    dueState(ecbDir, registry, { nowMs: Date.parse(instant), deadlineMs: HOURS_2, sources });
  afterAll(() => rmSync(ecbDir, { recursive: true, force: true }));

  it("is due from its customary hour until a document carrying every input, fetched since then, was applied", () => {
    const [decision] = at("2026-10-29T13:16:00Z").due;
    expect(decision).toMatchObject({ eventId: "e-decision", dueFrom: DUE_FROM, sources: ["ecb-data"] });
    expect(decision!.figures).toEqual({ kind: "inputs", inputKeys: expect.arrayContaining(INPUTS) });
    // Read before it became due (the hourly run at 13:00), and since then only in part: still due.
    for (const key of INPUTS) sight(key, "2026-10-29T13:00:00.000Z");
    sight(INPUTS[0]!, "2026-10-29T13:15:00.500Z");
    sight(INPUTS[1]!, "2026-10-29T13:15:00.500Z");
    expect(at("2026-10-29T13:16:00Z").due).toHaveLength(1);
    sight(INPUTS[2]!, "2026-10-29T13:15:01.000Z");
    expect(at("2026-10-29T13:16:00Z").due).toEqual([]);
  });

  it("a source that asked to wait holds its due releases, and the line says until when; then they are due again", () => {
    const store = openStore(path);
    // A fresh decision date, so that the inputs read above do not close it.
    store.insertEvent(
      event({
        id: "e-december",
        release_slug: "ecb-monetary-policy-decision",
        scheduled_date: "2026-12-17",
        source_timezone: "Europe/Berlin",
      }),
    );
    // Asked at 13:15 to wait five minutes.
    keepSourceWait(store.db, "ecb-data", 300_000, Date.parse("2026-12-17T13:15:00Z"), "run_20261217T131500_000000");
    store.close();
    const waiting = at("2026-12-17T13:16:00Z");
    expect(waiting.due).toEqual([]);
    expect(nothingDueLine(waiting)).toBe(
      "nothing asked: ecb-monetary-policy-decision is due but ecb-data asked to wait until 2026-12-17T13:20:00.000Z (Retry-After); it stays due until 2026-12-17T15:15:00Z",
    );
    // A full run asks every source all the same, and watches the held release for its figures.
    const full = planRun(ecbDir, registry, Date.parse("2026-12-17T13:16:00Z"), {}, { due: false, only: null });
    expect(full).toMatchObject({ kind: "run", only: null, watch: [{ eventId: "e-december" }] });
    expect(at("2026-12-17T13:20:00Z").due.map((release) => release.eventId)).toEqual(["e-december"]);
  });

  it("with --source, neither due nor next names a release of another source", () => {
    expect(at("2026-12-01T00:00:00Z").next).toMatchObject({ eventId: "e-december" });
    expect(nothingDueLine(at("2026-12-01T00:00:00Z", ["bls-api"]))).toBe(
      "nothing due: the calendar holds no later release whose figures the service fetches",
    );
    expect(at("2026-12-17T13:20:00Z", ["bls-api"]).due).toEqual([]);
  });

  it("a store written before value sightings and source waits were kept is read: the release stays due", () => {
    const db = new Database(path);
    db.exec("DROP TABLE value_sightings; DROP TABLE source_waits");
    db.close();
    expect(at("2026-10-29T13:16:00Z").due.map((release) => release.eventId)).toEqual(["e-decision"]);
  });
});

describe("due-run settings", () => {
  it("the deadline defaults to 2 hours and is configurable in minutes", () => {
    expect(dueDeadlineMsFrom({})).toBe(HOURS_2);
    expect(dueDeadlineMsFrom({ SERVICE_DUE_DEADLINE_MINUTES: "30" })).toBe(1_800_000);
    expect(() => dueDeadlineMsFrom({ SERVICE_DUE_DEADLINE_MINUTES: "0" })).toThrow(/SERVICE_DUE_DEADLINE_MINUTES/);
  });

  it("SERVICE_CLOCK_START starts the clock at an instant with its offset, and refuses one without", () => {
    const clock = ingestClockFrom({ SERVICE_CLOCK_START: "2026-08-12T08:31:00-04:00" });
    expect(clock() - Date.parse("2026-08-12T12:31:00Z")).toBeGreaterThanOrEqual(0);
    expect(clock() - Date.parse("2026-08-12T12:31:00Z")).toBeLessThan(60_000);
    expect(() => ingestClockFrom({ SERVICE_CLOCK_START: "2026-08-12T12:31:00" })).toThrow(/SERVICE_CLOCK_START/);
    // A day that does not exist is refused, not rolled over into March.
    expect(() => ingestClockFrom({ SERVICE_CLOCK_START: "2026-02-30T10:00:00Z" })).toThrow(/SERVICE_CLOCK_START/);
  });
});
