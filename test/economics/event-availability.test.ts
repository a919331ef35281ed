import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseBlsObservations } from "../../cli/ingest/adapters/bls-observations.ts";
import { parseBlsReleaseSchedule } from "../../cli/ingest/adapters/bls-release-schedule.ts";
import { applyCalendarSnapshot } from "../../cli/ingest/apply-calendar.ts";
import { openStore, type Store } from "../../cli/ingest/ledger/store.ts";
import { createPeriodLinker } from "../../cli/ingest/link-periods-by-value.ts";
import { createReleaseResolver } from "../../cli/ingest/release-matching.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { removeTempDirs, tempDir } from "../ingest/cli-process.ts";
import { removeEconomicsDataDirs, sampleDataDir } from "../support/economics-index.ts";
import { credentialedClient } from "../support/economics-requests.ts";
import { fakeClock, type RunningService, startService } from "../support/service.ts";

afterAll(() => {
  removeEconomicsDataDirs();
  removeTempDirs();
});

const SAMPLES = new URL("../../data/samples/", import.meta.url);
const sample = (path: string) => readFileSync(new URL(path, SAMPLES));

interface Entry {
  id: string;
  title: string;
  scheduledDate: string;
  scheduledAt: string | null;
  release: { slug: string; publisher: string };
  referencePeriod: { code: string } | null;
  derivedState: string;
  publication: { confirmed: boolean; evidence: { kind: string; detail: string }[] };
  values: { availability: string; actual: { referencePeriod: string; value: string | null } | null };
}

describe("values.availability on the sample archive", () => {
  let service: RunningService;
  let get: ReturnType<typeof credentialedClient>;
  const clock = fakeClock("2026-11-23T12:00:00Z");
  const entries = async (query: string): Promise<Entry[]> => {
    const answer = await get(`/api/v1/economics/events?${query}&limit=500`);
    expect(answer.status).toBe(200);
    return answer.body.data.entries;
  };

  beforeAll(async () => {
    service = await startService({ seedDataDir: await sampleDataDir(), clock });
    get = credentialedClient(service);
  });
  afterAll(() => service.close());

  it("never says NOT_YET_AVAILABLE of a release that has passed: the 2021-2023 Eurostat events are UNAVAILABLE or AVAILABLE", async () => {
    const past: Entry[] = [];
    for (const year of [2021, 2022, 2023])
      past.push(...(await entries(`from=${year}-01-01&to=${year}-12-31&source=eu-stats-release-calendar`)));
    const linked = past.filter((entry) => entry.values.availability !== "NOT_LINKED");
    expect(linked.length).toBeGreaterThan(100);
    expect(linked.filter((entry) => entry.values.availability === "NOT_YET_AVAILABLE")).toEqual([]);
    expect(new Set(linked.map((entry) => entry.values.availability))).toEqual(new Set(["UNAVAILABLE"]));
    for (const entry of linked) expect(entry.derivedState, entry.id).not.toMatch(/^(UPCOMING|DUE_TODAY)$/);
  });

  it("says NOT_YET_AVAILABLE of releases still to come, and UNAVAILABLE once their date has passed without a value", async () => {
    const query = "from=2026-12-01&to=2026-12-18&release=eurostat-hicp-flash-estimate,eurostat-industrial-production";
    const coming = await entries(query);
    expect(coming.length).toBeGreaterThan(1);
    for (const entry of coming)
      expect([entry.derivedState, entry.values.availability], entry.title).toEqual(["UPCOMING", "NOT_YET_AVAILABLE"]);

    clock.set("2026-12-19T00:00:00Z");
    try {
      const passed = await entries(query);
      expect(passed.map((entry) => entry.id)).toEqual(coming.map((entry) => entry.id));
      for (const entry of passed)
        expect([entry.derivedState, entry.values.availability], entry.title).toEqual([
          "PAST_DUE_AWAITING_CONFIRMATION",
          "UNAVAILABLE",
        ]);
    } finally {
      clock.set("2026-11-23T12:00:00Z");
    }
  });

  it("shows a BLS release's value where a value confirms its period, with the evidence for the link", async () => {
    const august = await entries("from=2026-08-01&to=2026-08-31&release=bls-employment-situation");
    expect(august).toHaveLength(1);
    const jobs = august[0]!;
    expect(jobs).toMatchObject({
      scheduledAt: "2026-08-07T12:30:00.000Z",
      referencePeriod: { code: "2026-07" },
      values: { availability: "AVAILABLE", actual: { referencePeriod: "2026-07", value: "158858" } },
    });
    expect(jobs.publication.confirmed).toBe(true);
    expect(jobs.publication.evidence).toContainEqual(
      expect.objectContaining({
        kind: "VERIFIED_VALUE",
        detail:
          "us-nonfarm-payroll-employment 2026-07 = 158858, the newest period of a document retrieved 2026-08-24T23:59:59Z: this is the latest The Employment Situation event by then and the first after 2026-07 ended, so it published 2026-07",
      }),
    );
    // The values read before the link are its release's figures all the same (issue 38, item 3: linked at the run's end).
    expect(jobs.publication.evidence).toContainEqual(
      expect.objectContaining({ kind: "VERIFIED_VALUE", detail: "us-unemployment-rate 2026-07 = 4.1 (vintage 1)" }),
    );
    // No value says which period the CPI of 2025-10-24 published: it keeps no period rather than an inferred one.
    const october = await entries("from=2025-10-24&to=2025-10-24&release=bls-consumer-price-index");
    expect(october).toHaveLength(1);
    expect(october[0]).toMatchObject({ referencePeriod: null, values: { availability: "NOT_LINKED", actual: null } });
  });
});

describe("periods confirmed by values (BLS, whose calendar states none)", () => {
  const registry = readRegistrySources(new Date("2026-11-21T00:00:00Z"));
  const linkPeriods = createPeriodLinker(registry);
  /** Real recorded BLS API answer (captured 2026-08-24): 13 newest months of CPI, unemployment, payrolls, earnings, PPI. */
  const observations = parseBlsObservations(sample("bls-api/bls-v1-5series-2025-07_2026-07-captured-2026-08-24.json"));
  const stores: Store[] = [];
  afterAll(() => {
    for (const store of stores) store.close();
  });

  /** A store holding the real BLS schedule of 2025-2026. */
  function scheduleStore(): Store {
    const store = openStore(join(tempDir("period-links"), "store.sqlite"));
    stores.push(store);
    const snapshot = parseBlsReleaseSchedule(sample("labour-stats-release-schedule/bls-schedule-2025-2026.ics"));
    applyCalendarSnapshot(store, createReleaseResolver(registry), "labour-stats-release-schedule", snapshot.events, {
      runId: "run_calendar",
      at: "2026-02-23T06:00:00.000Z",
    });
    return store;
  }
  const periodOn = (store: Store, release: string, date: string) =>
    store.db
      .prepare(
        "SELECT json_extract(reference_period, '$.code') FROM events WHERE release_slug = ? AND scheduled_date = ?",
      )
      .pluck()
      .get(release, date) as string | null;
  // Each call stands for one document (its own content hash), linked as a run links at its end.
  let documents = 0;
  const link = (store: Store, rows: typeof observations, retrievedAt: string) => {
    const sha256 = String(++documents).padStart(64, "0");
    linkPeriods.keep(store, rows, retrievedAt, {
      runId: "run_values",
      at: "2026-11-21T06:00:00.000Z",
      document: { sha256, fetchedAt: retrievedAt },
    });
    return linkPeriods.relinkAll(store);
  };

  it("links the newest period of a document to the release's latest event before it, when that is its first event after the period", () => {
    const store = scheduleStore();
    expect(link(store, observations, "2026-08-24T00:00:00.000Z")).toBe(3);
    expect(periodOn(store, "bls-employment-situation", "2026-08-07")).toBe("2026-07");
    expect(periodOn(store, "bls-consumer-price-index", "2026-08-12")).toBe("2026-07");
    expect(periodOn(store, "bls-producer-price-index", "2026-08-13")).toBe("2026-07");
    expect(periodOn(store, "bls-employment-situation", "2026-07-02")).toBeNull();
    // A second document saying the same links nothing more.
    expect(link(store, observations, "2026-08-25T00:00:00.000Z")).toBe(0);
  });

  it("links nothing when the document is older than the events, or stale", () => {
    const store = scheduleStore();
    // Read on 5 August, before the 7 August release: a document naming July as newest contradicts the schedule.
    expect(link(store, observations, "2026-08-05T00:00:00.000Z")).toBe(0);
    // Read on 12 September, after the releases of August (jobs 4, PPI 10, CPI 11 September): a stale document says nothing of them.
    expect(link(store, observations, "2026-09-12T00:00:00.000Z")).toBe(0);
    expect(store.db.prepare("SELECT count(*) FROM events WHERE reference_period IS NOT NULL").pluck().get()).toBe(0);
  });

  it("reads the document's time against each release: on 10 September only the jobs report of August had come", () => {
    const store = scheduleStore();
    expect(link(store, observations, "2026-09-10T00:00:00.000Z")).toBe(2);
    expect(periodOn(store, "bls-consumer-price-index", "2026-08-12")).toBe("2026-07");
    expect(periodOn(store, "bls-producer-price-index", "2026-08-13")).toBe("2026-07");
    expect(periodOn(store, "bls-employment-situation", "2026-08-07")).toBeNull();
  });

  it("follows the 2025 lapse in appropriations: the September jobs report came on 20 November", () => {
    const store = scheduleStore();
    // The same recorded rows as a document of late November 2025 would have held them (newest period 2025-09).
    const asOfNovember = observations.filter((row) => row.referencePeriod <= "2025-09");
    expect(link(store, asOfNovember, "2025-11-25T00:00:00.000Z")).toBeGreaterThan(0);
    expect(periodOn(store, "bls-employment-situation", "2025-11-20")).toBe("2025-09");
    expect(periodOn(store, "bls-consumer-price-index", "2025-10-24")).toBe("2025-09");
  });
});
