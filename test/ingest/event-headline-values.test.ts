import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { type IngestSummary, runIngestion } from "../support/compiled-ingestion.ts";
import { copyRecordedDocument, stateFetchTime } from "../support/dated-documents.ts";
import { removeTempDirs, SAMPLES_DIR, tempDir } from "./cli-process.ts";

/**
 * Issue 38, items 1 and 2, through the real pipeline on real documents from data/samples, each copied with its own
 * sidecar (the fetch time its recording states; the replay orders a source's documents by it): the BLS schedule
 * 2025-2026 (fetch time not known) and Eurostat's October-December 2026 calendar (retrieved 2026-09-12); BLS's CPI-U SA
 * answer (3 months of 2021, response dated 22 Sep 2021) and its 5-series answer captured 2026-08-24; Eurostat's
 * une_rt_m, sts_inpr_m and sts_trtu_m answers captured 2026-09-12. One MODIFIED copy is made here: the une_rt_m answer
 * with the euro area's 2026-07 rate revised from 6.4 to 6.5 (a revision Eurostat did not make), given by this test a
 * fetch time of 2026-10-15, after the release of 2026-10-01 that used 6.4 as its previous.
 */

const copies: [string, string][] = [
  ["labour-stats-release-schedule", "bls-schedule-2025-2026.ics"],
  ["eu-stats-release-calendar", "eurostat-release-calendar-retrieved-2026-09-12-for-2026-10-01_2027-01-01.json"],
  ["bls-api", "bls-cpi-cusr0000sa0.json"],
  ["bls-api", "bls-v1-5series-2025-07_2026-07-captured-2026-08-24.json"],
  ["eurostat-sdmx", "eurostat-une_rt_m-eu27-ea21-2024-01_2026-08-captured-2026-09-12.jsonstat.json"],
  ["eurostat-sdmx", "eurostat-sts_inpr_m-eu27-ea21-2024-01_2026-07-captured-2026-09-12.jsonstat.json"],
  ["eurostat-sdmx", "eurostat-sts_trtu_m-eu27-ea21-2024-01_2026-07-captured-2026-09-12.jsonstat.json"],
];
const REVISED_NAME = "eurostat-une_rt_m-eu27-ea21-MODIFIED-2026-07-revised.jsonstat.json";
const REVISED_FETCHED_AT = "2026-10-15T00:00:00Z";
const UNEMPLOYMENT = readFileSync(
  join(SAMPLES_DIR, "eurostat-sdmx", "eurostat-une_rt_m-eu27-ea21-2024-01_2026-08-captured-2026-09-12.jsonstat.json"),
  "utf8",
);
/** Position 62 is EA21 (second geo) × 2026-07 (31st of 32 months). */
const REVISED_UNEMPLOYMENT = UNEMPLOYMENT.replace('"62":6.4', '"62":6.5');

interface EventValue {
  seriesSlug: string;
  referencePeriod: string;
  value: string | null;
  vintage: number;
  recordedAt: string;
  revisions: { value: string | null }[];
}
interface IndexedEvent {
  scheduledDate: string;
  referencePeriod: { code: string } | null;
  values: { availability: string; actual: EventValue | null; previous: EventValue | null };
}

describe("an event's values: its release's headline series, and the period before as the release found it (issue 38)", () => {
  const archive = tempDir("headline-archive");
  const dataDir = tempDir("headline-data");
  let summary: IngestSummary;
  let events: { release: string; record: IndexedEvent }[];
  const event = (release: string, scheduledDate: string): IndexedEvent => {
    const found = events.filter((row) => row.release === release && row.record.scheduledDate === scheduledDate);
    expect(found, `${release} ${scheduledDate}`).toHaveLength(1);
    return found[0]!.record;
  };

  beforeAll(async () => {
    expect(REVISED_UNEMPLOYMENT).not.toBe(UNEMPLOYMENT);
    for (const [folder, name] of copies) {
      mkdirSync(join(archive, folder), { recursive: true });
      copyRecordedDocument(join(SAMPLES_DIR, folder, name), join(archive, folder, name));
    }
    const revised = join(archive, "eurostat-sdmx", REVISED_NAME);
    writeFileSync(revised, REVISED_UNEMPLOYMENT);
    stateFetchTime(
      revised,
      REVISED_FETCHED_AT,
      "MODIFIED by test/ingest/event-headline-values.test.ts (EA21 2026-07: 6.4 → 6.5); the fetch time is the test's",
    );
    summary = await runIngestion({
      dataDir,
      registry: readRegistrySources(new Date("2026-11-21T00:00:00Z")),
      mode: { kind: "archive", dir: archive },
      only: ["labour-stats-release-schedule", "eu-stats-release-calendar", "bls-api", "eurostat-sdmx"],
      now: () => Date.parse("2026-11-21T06:00:00.000Z"),
      progress: () => {},
    });
    const index = new Database(join(dataDir, "index.sqlite"), { readonly: true });
    try {
      const rows = index.prepare("SELECT release_slug, record FROM events").all() as {
        release_slug: string;
        record: string;
      }[];
      events = rows.map((row) => ({ release: row.release_slug, record: JSON.parse(row.record) as IndexedEvent }));
    } finally {
      index.close();
    }
  });
  afterAll(() => removeTempDirs());

  it("replays every document", () => {
    expect(summary.outcome).toBe("succeeded");
  });

  it("CPI of 2026-08-12: the first headline it holds (the 12-month change, 3.4) is its actual, and no 2021 previous", () => {
    const cpi = event("bls-consumer-price-index", "2026-08-12");
    expect(cpi.referencePeriod?.code).toBe("2026-07");
    expect(cpi.values.availability).toBe("AVAILABLE");
    // The SA 1-month change, stated first by the release, is held only for 2021-08 and 2021-09.
    expect(cpi.values.actual).toMatchObject({
      seriesSlug: "us-cpi-all-items-12-month-change",
      referencePeriod: "2026-07",
      value: "3.4",
    });
    // 2026-06 was first recorded on 2026-08-24, after the release: the service held no previous value at the release.
    expect(cpi.values.previous).toBeNull();
  });

  it("the Employment Situation of 2026-08-07 leads with payrolls, and has no previous recorded before it", () => {
    const jobs = event("bls-employment-situation", "2026-08-07");
    expect(jobs.values.actual).toMatchObject({
      seriesSlug: "us-nonfarm-payroll-employment",
      referencePeriod: "2026-07",
    });
    expect(jobs.values.previous).toBeNull();
  });

  it("Eurostat unemployment of 2026-10-01 (August): previous is July as it stood then (6.4), the later 6.5 a revision", () => {
    const unemployment = event("eurostat-unemployment", "2026-10-01");
    expect(unemployment.referencePeriod?.code).toBe("2026-08");
    expect(unemployment.values.previous).toMatchObject({
      seriesSlug: "ea-unemployment-rate",
      referencePeriod: "2026-07",
      value: "6.4",
      vintage: 1,
      // The recording's own fetch time (its sidecar: the response's Date header).
      recordedAt: "2026-09-12T04:21:48.000Z",
      revisions: [{ value: "6.5" }],
    });
  });

  it("never an older period: no previous where the period before is not held", () => {
    for (const [release, date, period] of [
      ["eurostat-unemployment", "2026-12-02", "2026-10"],
      ["eurostat-industrial-production", "2026-11-16", "2026-09"],
      ["eurostat-industrial-production", "2026-12-15", "2026-10"],
    ] as const) {
      const found = event(release, date);
      expect(found.referencePeriod?.code, `${release} ${date}`).toBe(period);
      expect(found.values.previous, `${release} ${date}`).toBeNull();
    }
  });

  it("retail trade of 2026-10-06 (August), from the new recording: previous is the euro area's July, -0.6", () => {
    const retail = event("eurostat-retail-trade", "2026-10-06");
    expect(retail.referencePeriod?.code).toBe("2026-08");
    expect(retail.values.previous).toMatchObject({
      seriesSlug: "ea-retail-trade-volume-month-on-month",
      referencePeriod: "2026-07",
      value: "-0.6",
    });
  });
});
