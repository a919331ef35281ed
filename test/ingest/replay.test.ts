import { readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SOURCES } from "../../cli/ingest/sources.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { type IngestSummary, runIngestion } from "../support/compiled-ingestion.ts";
import { type CliExit, removeTempDirs, runCliAsync, SAMPLES_DIR, tempDir } from "./cli-process.ts";
import { dumpTables, maskRunTimes, rowCounts, type TableDump } from "./sqlite-dump.ts";

const fresh = (label: string) => tempDir(`replay-${label}`);
afterAll(removeTempDirs);
const sampleFiles = (source: string) =>
  readdirSync(join(SAMPLES_DIR, source)).filter(
    (name) => !name.startsWith(".") && extname(name) !== ".md" && !name.endsWith(".fetch.json"),
  );
const ALL_SAMPLE_FILES = SOURCES.reduce((total, source) => total + sampleFiles(source.slug).length, 0);
/** What a run changed, by the names the progress lines use. */
const CHANGE_COUNTS = [
  "created",
  "attached",
  "changed",
  "cancelled",
  "appended",
  "new",
  "updated",
  "withdrawn",
  "confirmed",
];

/** Per-source progress lines of a run: `[i/n] slug: ok — <detail>`. */
function progressOf(stderr: string): Map<string, { state: string; detail: string }> {
  const lines = new Map<string, { state: string; detail: string }>();
  for (const match of stderr.matchAll(/^\[(\d+)\/(\d+)\] ([a-z-]+): (ok|INCOMPLETE) — (.*)$/gm))
    lines.set(match[3]!, { state: match[4]!, detail: match[5]! });
  return lines;
}

/** `567 received, 324 unmatched, 243 created` → numbers by name. */
function countsOf(detail: string): Record<string, number> {
  return Object.fromEntries([...detail.matchAll(/(\d+) ([a-z]+)/g)].map((match) => [match[2]!, Number(match[1])]));
}

describe("replay of the sample archive through the real CLI", () => {
  const dirA = fresh("a");
  const dirB = fresh("b");
  let started = 0;
  let first: CliExit;
  let again: CliExit;
  let other: CliExit;
  let storeAfterFirst: TableDump;
  let indexAfterFirst: TableDump;

  beforeAll(async () => {
    started = Date.now() - 1000;
    first = await runCliAsync(["ingest", "--from-archive", SAMPLES_DIR, "--data-dir", dirA]);
    storeAfterFirst = dumpTables(join(dirA, "store.sqlite"));
    indexAfterFirst = dumpTables(join(dirA, "index.sqlite"));
    again = await runCliAsync(["ingest", "--from-archive", SAMPLES_DIR, "--data-dir", dirA]);
    other = await runCliAsync(["ingest", "--from-archive", SAMPLES_DIR, "--data-dir", dirB]);
  });

  it("exits 0, prints progress for every source and a summary", () => {
    for (const result of [first, again, other]) {
      expect(result.status, result.stderr).toBe(0);
      const progress = progressOf(result.stderr);
      expect([...progress.keys()]).toEqual(SOURCES.map((source) => source.slug));
      for (const [position, source] of SOURCES.entries()) {
        expect(result.stderr).toContain(`[${position + 1}/${SOURCES.length}] ${source.slug}: replaying…`);
        expect(progress.get(source.slug)!.state).toBe("ok");
        const files = sampleFiles(source.slug).length;
        expect(progress.get(source.slug)!.detail).toMatch(new RegExp(`^${files} documents?\\b`));
      }
      expect(result.stderr).toContain("publishing the index…");
      expect(result.stdout).toMatch(/^run run_\d{8}T\d{6}_[0-9a-f]{6}: succeeded, index published$/m);
      expect(result.stdout).toMatch(
        new RegExp(
          `^documents ${ALL_SAMPLE_FILES}, events new \\d+, changed \\d+, cancelled \\d+, vintages appended \\d+, \\d+\\.\\d s$`,
          "m",
        ),
      );
      expect(result.stdout).not.toMatch(/incomplete sources/);
    }
  });

  it("reads something from every sample source on a first replay", () => {
    const progress = progressOf(first.stderr);
    for (const source of SOURCES) {
      const counts = countsOf(progress.get(source.slug)!.detail);
      const produced = source.kind === "calendar" ? "created" : source.kind === "observations" ? "appended" : "new";
      expect(counts[produced] ?? 0, `${source.slug} ${produced}`).toBeGreaterThan(0);
    }
    const summary = /events new (\d+), changed (\d+), cancelled (\d+), vintages appended (\d+)/.exec(first.stdout)!;
    expect(Number(summary[1])).toBeGreaterThan(0);
    expect(Number(summary[4])).toBeGreaterThan(0);
  });

  it("gives identical index contents in two fresh data directories, apart from the run's own times", () => {
    const mask = maskRunTimes(started, Date.now() + 1000);
    const a = dumpTables(join(dirA, "index.sqlite"), mask);
    const b = dumpTables(join(dirB, "index.sqlite"), mask);
    expect(rowCounts(a)).toEqual(rowCounts(b));
    expect(a.events!.length).toBeGreaterThan(0);
    expect(a.observations!.length).toBeGreaterThan(0);
    for (const table of Object.keys(a)) expect(b[table], table).toEqual(a[table]);
  });

  it("appends no vintage and changes no event when the same archive is replayed into the same data directory", () => {
    expect(again.stdout).toMatch(
      new RegExp(`^documents ${ALL_SAMPLE_FILES}, events new 0, changed 0, cancelled 0, vintages appended 0,`, "m"),
    );
    for (const [slug, { detail }] of progressOf(again.stderr)) {
      const counts = countsOf(detail);
      for (const name of CHANGE_COUNTS) expect(counts[name] ?? 0, `${slug} ${name}`).toBe(0);
    }
    // Every table of the ledger but the run records is as the first replay left it, apart from "last seen" times.
    const store = dumpTables(join(dirA, "store.sqlite"));
    const withoutLastSeen = (rows: Record<string, unknown>[] = []) => rows.map(({ last_seen_at: _, ...row }) => row);
    for (const table of Object.keys(storeAfterFirst).filter(
      (name) => !["runs", "source_checks", "documents"].includes(name),
    )) {
      expect(withoutLastSeen(store[table]), table).toEqual(withoutLastSeen(storeAfterFirst[table]));
    }
    expect(store.vintages!.length).toBeGreaterThan(0);
    expect(store.events!.length).toBeGreaterThan(0);
    // Two runs are on record; the documents of the second are the same bytes (same hashes) as the first's.
    expect(store.runs!.map((run) => run.outcome)).toEqual(["succeeded", "succeeded"]);
    const hashes = (rows: Record<string, unknown>[], runId: unknown) =>
      rows
        .filter((row) => row.run_id === runId)
        .map((row) => row.sha256)
        .sort();
    expect(hashes(store.documents!, store.runs![1]!.id)).toEqual(hashes(store.documents!, store.runs![0]!.id));

    const index = dumpTables(join(dirA, "index.sqlite"));
    expect(index.events).toEqual(indexAfterFirst.events);
    expect(index.observations).toEqual(indexAfterFirst.observations);
    expect(index.event_sources).toEqual(indexAfterFirst.event_sources);
  });
});

describe("replay with a pinned clock and run id", () => {
  it("publishes the same index twice, publication times and file bytes included", async () => {
    const registry = readRegistrySources(new Date("2026-11-21T00:00:00Z"));
    const replay = async (dataDir: string): Promise<IngestSummary> => {
      let tick = Date.parse("2026-11-21T06:00:00.000Z");
      return runIngestion({
        dataDir,
        registry,
        mode: { kind: "archive", dir: SAMPLES_DIR },
        only: null,
        now: () => tick++,
        progress: () => {},
        runId: "run_20261121T060000_0a0b0c",
      });
    };
    const [dirA, dirB] = [fresh("pinned-a"), fresh("pinned-b")];
    const a = await replay(dirA);
    const b = await replay(dirB);
    expect(a.outcome).toBe("succeeded");
    expect({ ...b, runId: null, durationMs: null }).toEqual({ ...a, runId: null, durationMs: null });
    const indexA = dumpTables(join(dirA, "index.sqlite"));
    expect(indexA.publication).toEqual([
      { key: "dataRebuiltAt", value: expect.stringMatching(/^2026-11-21T06:00:00\.\d{3}Z$/) },
      { key: "lastIngestedAt", value: expect.stringMatching(/^2026-11-21T06:00:00\.\d{3}Z$/) },
      { key: "lastSuccessfulIngestionAt", value: expect.stringMatching(/^2026-11-21T06:00:00\.\d{3}Z$/) },
      { key: "publishedAt", value: expect.stringMatching(/^2026-11-21T06:00:00\.\d{3}Z$/) },
    ]);
    expect(dumpTables(join(dirB, "index.sqlite"))).toEqual(indexA);
    // With the clock pinned the files themselves are the same bytes.
    expect(readFileSync(join(dirB, "index.sqlite")).equals(readFileSync(join(dirA, "index.sqlite")))).toBe(true);
  });
});
