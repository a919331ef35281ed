import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { parseEcbMeetingsCalendar } from "../../cli/ingest/adapters/ecb-meetings-calendar.ts";
import { applyCalendarSnapshot, stableEventId } from "../../cli/ingest/apply-calendar.ts";
import { publishIndex } from "../../cli/ingest/index/publish-index.ts";
import { openStore } from "../../cli/ingest/ledger/store.ts";
import { createReleaseResolver } from "../../cli/ingest/release-matching.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import type { Registry } from "../../schemas/registry.ts";
import type { CalendarSource } from "../../schemas/vocabularies.ts";
import { removeTempDirs, SAMPLES_DIR, tempDir } from "./cli-process.ts";

afterAll(removeTempDirs);

const registry = readRegistrySources(new Date("2026-11-21T00:00:00Z"));
const BLS: CalendarSource = "labour-stats-release-schedule";
const MEETINGS: CalendarSource = "central-bank-meetings-calendar";

describe("an event the registry starts curating, and an event whose record turns out to be no release", () => {
  it("moves to the curated release (change recorded), keeping its id", () => {
    const store = openStore(join(tempDir("curating"), "store.sqlite"));
    try {
      const record = {
        source: BLS,
        sourceEventId: "uid-ecec",
        title: "Employer Costs for Employee Compensation",
        scheduledDate: "2026-03-20",
        scheduledAt: "2026-03-20T12:30:00.000Z",
        timePrecision: "EXACT_TIME" as const,
        sourceTimezone: "America/New_York",
        referencePeriod: null,
        referencePeriodText: null,
        sourceStatus: "SCHEDULED" as const,
        sourceUrl: null,
      };
      applyCalendarSnapshot(store, createReleaseResolver(registry), BLS, [record], {
        runId: "run_1",
        at: "2026-03-01T06:00:00.000Z",
      });
      expect(store.event(stableEventId(BLS, "uid-ecec"))!.release_slug).toBe(
        "bls-employer-costs-for-employee-compensation",
      );
      const curating: Registry = {
        ...registry,
        releases: [
          ...registry.releases,
          {
            ...registry.releases[0]!,
            slug: "bls-ecec",
            seriesSlugs: [],
            headlineSeriesSlugs: [],
            titlePatterns: { [BLS]: ["^Employer Costs for Employee Compensation$"] },
          },
        ],
      };
      const counts = applyCalendarSnapshot(store, createReleaseResolver(curating), BLS, [record], {
        runId: "run_2",
        at: "2026-03-02T06:00:00.000Z",
      });
      expect(counts).toMatchObject({ changed: 1, uncurated: 0 });
      expect(store.event(stableEventId(BLS, "uid-ecec"))!.release_slug).toBe("bls-ecec");
      expect(store.db.prepare("SELECT field, old_value, new_value FROM event_changes").all()).toEqual([
        { field: "release_slug", old_value: "bls-employer-costs-for-employee-compensation", new_value: "bls-ecec" },
      ]);
    } finally {
      store.close();
    }
  });

  it("withholds the event a store kept for October 2028's unlabelled day 1, without cancelling anything", async () => {
    const dataDir = tempDir("withheld");
    const store = openStore(join(dataDir, "store.sqlite"));
    try {
      const document = readFileSync(join(SAMPLES_DIR, MEETINGS, "ecb-govc-meetings-2026-05-01.derived.ics"));
      const snapshot = parseEcbMeetingsCalendar(document);
      const day1 = snapshot.skipped.find((row) => row.scheduledDate === "2028-10-11")!;
      // What a store written before the fix holds: the row read as a decision of its own.
      const asEvent = {
        ...snapshot.events.find((event) => event.scheduledDate === "2028-10-12")!,
        sourceEventId: day1.record,
        title: day1.title!,
        scheduledDate: "2028-10-11",
      };
      const resolve = createReleaseResolver(registry);
      applyCalendarSnapshot(store, resolve, MEETINGS, [...snapshot.events, asEvent], {
        runId: "run_old",
        at: "2026-05-01T06:00:00.000Z",
      });
      const facts = {
        publishedAt: "2026-05-02T06:00:00.000Z",
        lastIngestedAt: "2026-05-02T06:00:00.000Z",
        lastSuccessfulIngestionAt: "2026-05-02T06:00:00.000Z",
      };
      const decisionsIn = async () => {
        const index = new Database(await publishIndex(store, registry, dataDir, facts), { readonly: true });
        try {
          return index
            .prepare(
              "SELECT scheduled_date FROM events WHERE release_slug = 'ecb-monetary-policy-decision' AND scheduled_date LIKE '2028-10-%' ORDER BY 1",
            )
            .pluck()
            .all();
        } finally {
          index.close();
        }
      };
      expect(await decisionsIn()).toEqual(["2028-10-11", "2028-10-12"]);

      const counts = applyCalendarSnapshot(
        store,
        resolve,
        MEETINGS,
        snapshot.events,
        { runId: "run_new", at: "2026-05-02T06:00:00.000Z" },
        snapshot.skipped,
      );
      expect(counts).toMatchObject({ cancelled: 0, skipped: snapshot.skipped.length });
      expect(await decisionsIn()).toEqual(["2028-10-12"]);
      expect(store.event(stableEventId(MEETINGS, day1.record))!.status).toBe("SCHEDULED");
    } finally {
      store.close();
    }
  });
});
