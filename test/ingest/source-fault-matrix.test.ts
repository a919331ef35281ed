import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SOURCES } from "../../cli/ingest/sources.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { type IngestSummary, runIngestion } from "../support/compiled-ingestion.ts";
import { type FaultLimits, PUBLISHER_FAULTS, type PublisherFault } from "../support/publisher-faults.ts";
import { PUBLISHER_PATHS, SOURCE_OF_PATH } from "../support/publisher-paths.ts";
import { type PublisherStandin, startPublisherStandin } from "../support/publisher-standin.ts";
import { removeTempDirs, tempDir } from "./cli-process.ts";
import { indexLosses, indexView, storeLosses, storeView } from "./ledger-losses.ts";
import { dumpTables } from "./sqlite-dump.ts";

/** Every table of the index but its checks and publication facts: the data, which only a rebuild changes. */
function indexData(dataDir: string) {
  const { source_checks: _, publication: __, ...data } = dumpTables(join(dataDir, "index.sqlite"));
  return data;
}

/**
 * Every source of a fetch-mode run against every publisher fault (publisher-faults.ts), on the publisher stand-in.
 * Each cell starts from a copy of one data directory that a successful run has filled and published, then:
 *
 * 1. runs all sources with the fault on the one source's paths: that source is recorded incomplete, every other
 *    source succeeds, the run is `partial`, and the index it publishes says so; nothing of the store or the index is
 *    lost or cancelled;
 * 2. runs the faulted source alone: the run `failed` and rebuilds no index: the index's data stays row for row, and
 *    only where the run's checks change what the index states is it published again with them (publish-checks.ts);
 *    again nothing is lost.
 *
 * Runs are in-process (runIngestion, as the CLI calls it, compiled: compiled-ingestion.ts), which costs a fraction
 * of a CLI start. Cells are
 * independent (own stand-in, own copy, own clock), so they run concurrently: the time-out cells mostly wait.
 */

/** Small, so that the time-out and oversized cells are quick; still well above what a healthy local answer needs. */
const LIMITS: FaultLimits = { timeoutMs: 1500, maxBytes: 400_000 };
/** One retry (without the back-off wait): a fault that persists must outlast it. */
const HTTP = {
  userAgent: "source-fault-matrix (test@example.org)",
  timeoutMs: LIMITS.timeoutMs,
  maxBytes: LIMITS.maxBytes,
  retries: 1,
  sleep: async () => {},
};

const BASELINE_AT = Date.parse("2026-11-20T06:00:00.000Z");
const CELL_AT = Date.parse("2026-11-21T06:00:00.000Z");
const registry = readRegistrySources(new Date(BASELINE_AT));
const SLUGS = SOURCES.map((source) => source.slug);

/** The stand-in path pattern(s) of each source: all of its requests meet the fault. */
const patternsOf = (slug: string) =>
  (Object.keys(PUBLISHER_PATHS) as (keyof typeof PUBLISHER_PATHS)[])
    .filter((key) => SOURCE_OF_PATH[key] === slug)
    .map((key) => PUBLISHER_PATHS[key]);

interface Cell {
  source: string;
  fault: PublisherFault;
}
const CELLS: Cell[] = SOURCES.flatMap((source) => PUBLISHER_FAULTS.map((fault) => ({ source: source.slug, fault })));
const nameOf = (cell: Cell) =>
  `${cell.source} (${SOURCES.find((source) => source.slug === cell.source)!.kind}): ${cell.fault.name}`;

function ingest(
  dataDir: string,
  standin: PublisherStandin,
  only: string[] | null,
  now: () => number,
): Promise<IngestSummary> {
  return runIngestion({
    dataDir,
    registry,
    mode: { kind: "fetch", hosts: standin.hosts, blsApiKey: null, http: HTTP },
    only,
    now,
    progress: () => {},
  });
}

const bySource = <T>(entries: [string, T][]) => Object.fromEntries([...entries].sort(([a], [b]) => a.localeCompare(b)));
const expectedChecks = (faulted: string, sources: string[], ok: string, failed: string) =>
  bySource(sources.map((slug) => [slug, slug === faulted ? failed : ok]));

/** The run's own record and checks in the store, and what the index beside it says. */
function recordedRun(dataDir: string, runId: string) {
  const store = new Database(join(dataDir, "store.sqlite"), { readonly: true, fileMustExist: true });
  const index = new Database(join(dataDir, "index.sqlite"), { readonly: true, fileMustExist: true });
  try {
    const run = store.prepare("SELECT outcome, finished_at FROM runs WHERE id = ?").get(runId) as {
      outcome: string;
      finished_at: string | null;
    };
    const checks = store.prepare("SELECT source, result FROM source_checks WHERE run_id = ?").all(runId) as {
      source: string;
      result: string;
    }[];
    const indexChecks = index.prepare("SELECT source, latest_check FROM source_checks").all() as {
      source: string;
      latest_check: string;
    }[];
    const publishedAt = index
      .prepare("SELECT value FROM publication WHERE key = 'publishedAt'")
      .pluck()
      .get() as string;
    return {
      recordedOutcome: run.outcome,
      storeChecks: bySource(checks.map((check) => [check.source, check.result])),
      indexChecks: bySource(indexChecks.map((check) => [check.source, check.latest_check])),
      indexPublishedByThisRun: publishedAt === run.finished_at,
      storeIntegrity: store.pragma("integrity_check", { simple: true }),
      indexIntegrity: index.pragma("integrity_check", { simple: true }),
    };
  } finally {
    store.close();
    index.close();
  }
}

/** "as the fault" when the faulted source failed for the fault's reason; else what it failed with (or that it did not). */
function refusal(summary: IngestSummary, cell: Cell): string {
  const result = summary.sources.find((source) => source.source === cell.source);
  if (!result || result.ok) return "not refused";
  const expected = cell.fault.refusedAs;
  // An adapter's refusal names its source first; a transport failure names the host.
  const matches = expected === "document" ? result.detail.startsWith(`${cell.source}: `) : expected.test(result.detail);
  return matches ? "as the fault" : result.detail;
}

const whatWentWrong = (summary: IngestSummary) =>
  summary.sources
    .filter((source) => !source.ok)
    .map((source) => `${source.source}: ${source.detail}`)
    .join("\n");

describe("ingestion faults per source, in fetch mode against the publisher stand-in", () => {
  const baseline = tempDir("fault-matrix-baseline");

  beforeAll(async () => {
    const standin = await startPublisherStandin();
    try {
      let tick = BASELINE_AT;
      const first = await ingest(baseline, standin, null, () => tick++);
      expect(first.outcome, whatWentWrong(first)).toBe("succeeded");
    } finally {
      await standin.close();
    }
  });
  afterAll(removeTempDirs);

  test("the table covers every source with every fault, and each source's paths", () => {
    expect(CELLS).toHaveLength(SOURCES.length * PUBLISHER_FAULTS.length);
    for (const slug of SLUGS) expect(patternsOf(slug), slug).not.toEqual([]);
    expect(new Set(CELLS.map(nameOf)).size).toBe(CELLS.length);
  });

  test("the loss check is not vacuous: the baseline has something of every kind, and a loss is seen", () => {
    const before = storeView(baseline);
    const index = indexView(baseline)!;
    expect([before.vintages.size, before.events.size, before.announcements.size].every((size) => size > 0)).toBe(true);
    expect([index.observations.size, index.events.size, index.news.size].every((size) => size > 0)).toBe(true);
    const damaged = tempDir("fault-matrix-damaged");
    cpSync(baseline, damaged, { recursive: true });
    const store = new Database(join(damaged, "store.sqlite"));
    try {
      store.prepare("DELETE FROM vintages WHERE rowid = (SELECT min(rowid) FROM vintages)").run();
      store
        .prepare(
          "UPDATE events SET status = 'CANCELLED' WHERE id = (SELECT min(id) FROM events WHERE status <> 'CANCELLED')",
        )
        .run();
      store
        .prepare("UPDATE announcements SET state = 'WITHDRAWN' WHERE rowid = (SELECT min(rowid) FROM announcements)")
        .run();
    } finally {
      store.close();
    }
    expect(storeLosses(before, storeView(damaged)).map((loss) => loss.split(" ")[0])).toEqual([
      "vintage",
      "event",
      "announcement",
    ]);
  });

  describe.concurrent("cell", () => {
    // "%s" with the name first: "$name" would cut the name at 40 characters in the report.
    test.for(CELLS.map((cell) => [nameOf(cell), cell] as const))("%s", async ([, cell], { expect }) => {
      const standin = await startPublisherStandin();
      try {
        const dataDir = tempDir("fault-matrix-cell");
        cpSync(baseline, dataDir, { recursive: true });
        for (const pattern of patternsOf(cell.source)) cell.fault.apply(standin, pattern, LIMITS);
        let tick = CELL_AT;
        const now = () => tick++;
        const storeBefore = storeView(dataDir);
        const indexBefore = indexView(dataDir);

        const all = await ingest(dataDir, standin, null, now);
        expect(
          {
            outcome: all.outcome,
            published: all.published,
            sources: bySource(all.sources.map((source) => [source.source, source.ok ? "ok" : "incomplete"])),
            refused: refusal(all, cell),
            ...recordedRun(dataDir, all.runId),
            storeLosses: storeLosses(storeBefore, storeView(dataDir)),
            indexLosses: indexLosses(indexBefore, indexView(dataDir)),
          },
          whatWentWrong(all),
        ).toEqual({
          outcome: "partial",
          published: true,
          sources: expectedChecks(cell.source, SLUGS, "ok", "incomplete"),
          refused: "as the fault",
          recordedOutcome: "partial",
          storeChecks: expectedChecks(cell.source, SLUGS, "successful", "incomplete"),
          indexChecks: expectedChecks(cell.source, SLUGS, "successful", "incomplete"),
          indexPublishedByThisRun: true,
          storeIntegrity: "ok",
          indexIntegrity: "ok",
          storeLosses: [],
          indexLosses: [],
        });

        const indexBytes = readFileSync(join(dataDir, "index.sqlite"));
        const dataBefore = indexData(dataDir);
        const alone = await ingest(dataDir, standin, [cell.source], now);
        expect(
          {
            outcome: alone.outcome,
            published: alone.published,
            sources: bySource(alone.sources.map((source) => [source.source, source.ok ? "ok" : "incomplete"])),
            refused: refusal(alone, cell),
            ...recordedRun(dataDir, alone.runId),
            indexUnchanged: readFileSync(join(dataDir, "index.sqlite")).equals(indexBytes),
            indexDataUnchanged: isDeepStrictEqual(indexData(dataDir), dataBefore),
            storeLosses: storeLosses(storeBefore, storeView(dataDir)),
          },
          whatWentWrong(alone),
        ).toEqual({
          outcome: "failed",
          published: false,
          sources: { [cell.source]: "incomplete" },
          refused: "as the fault",
          recordedOutcome: "failed",
          storeChecks: { [cell.source]: "incomplete" },
          indexChecks: expectedChecks(cell.source, SLUGS, "successful", "incomplete"),
          // Published again, its data as it was, only where the run's checks change what it states (a document that
          // arrived moves the source's last reception); else the index of the run before, byte for byte.
          indexPublishedByThisRun: alone.checksPublished,
          storeIntegrity: "ok",
          indexIntegrity: "ok",
          indexUnchanged: !alone.checksPublished,
          indexDataUnchanged: true,
          storeLosses: [],
        });
      } finally {
        await standin.close();
      }
    });
  });
});
