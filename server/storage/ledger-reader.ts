import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { DATA_FILES } from "../../schemas/data-files.ts";
import { type CheckResult, RUN_OUTCOMES, type RunOutcome } from "../../schemas/vocabularies.ts";
import { ApiError } from "../http/api-error.ts";

const RECENT_RUNS = 20;

/**
 * Reads the store's ledger read-only; `none` when no run ever created it, or `table` (a first run that has created the
 * file but not yet its tables). Throws when the store cannot be read.
 */
function readLedger<T>(dataDir: string, table: string, none: T, read: (db: Database.Database) => T): T {
  const path = join(dataDir, DATA_FILES.store);
  if (!existsSync(path)) return none;
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)) return none;
    return read(db);
  } finally {
    db.close();
  }
}

/** For the operator routes: a ledger that cannot be read is STORAGE_UNAVAILABLE. */
function readRuns<T>(dataDir: string, none: T, read: (db: Database.Database) => T): T {
  try {
    return readLedger(dataDir, "source_checks", none, read);
  } catch {
    throw new ApiError("STORAGE_UNAVAILABLE");
  }
}

/** How many ingestion runs the ledger records with each outcome; all zero when none ever ran. */
export function countRunsByOutcome(dataDir: string): Record<RunOutcome, number> {
  const counts = Object.fromEntries(RUN_OUTCOMES.map((outcome) => [outcome, 0])) as Record<RunOutcome, number>;
  return readLedger(dataDir, "runs", counts, (db) => {
    const rows = db.prepare("SELECT outcome, COUNT(*) AS runs FROM runs GROUP BY outcome").all() as {
      outcome: RunOutcome;
      runs: number;
    }[];
    for (const row of rows) counts[row.outcome] = row.runs;
    return counts;
  });
}

/**
 * How long after their scheduled instants the ledger's releases were found (schemas/release-latency.ts), by the source
 * of their figures: none when no run has recorded any.
 */
export function readReleaseLatencies(dataDir: string): { source: string; seconds: number }[] {
  return readLedger(
    dataDir,
    "found_releases",
    [],
    (db) =>
      db
        .prepare("SELECT source, latency_seconds AS seconds FROM found_releases WHERE latency_seconds IS NOT NULL")
        .all() as { source: string; seconds: number }[],
  );
}

/** The most recent ingestion runs of the ledger with their source checks, newest first. */
export function readRecentRuns(dataDir: string) {
  return readRuns<RunView[]>(dataDir, [], (db) => {
    const runs = db
      .prepare("SELECT id, started_at, finished_at, outcome FROM runs ORDER BY started_at DESC LIMIT ?")
      .all(RECENT_RUNS) as StoredRun[];
    const checks = checksOf(db);
    return runs.map((run) => runView(run, checks));
  });
}

/** One run of the ledger with its source checks and, when it failed as a whole, why; null when the ledger has no such run. */
export function readRun(dataDir: string, id: string) {
  return readRuns<(RunView & { detail: string | null }) | null>(dataDir, null, (db) => {
    const run = db.prepare("SELECT id, started_at, finished_at, outcome, summary FROM runs WHERE id = ?").get(id) as
      | StoredRun
      | undefined;
    if (!run) return null;
    const summary = run.summary ? (JSON.parse(run.summary) as { error?: unknown }) : {};
    return { ...runView(run, checksOf(db)), detail: typeof summary.error === "string" ? summary.error : null };
  });
}

interface StoredRun {
  id: string;
  started_at: string;
  finished_at: string | null;
  outcome: RunOutcome;
  summary?: string | null;
}

interface RunView {
  id: string;
  startedAt: string;
  finishedAt: string | null;
  outcome: RunOutcome;
  sources: { sourceId: string; check: CheckResult; detail: string | null }[];
}

const checksOf = (db: Database.Database) =>
  db.prepare("SELECT source, result, detail FROM source_checks WHERE run_id = ? ORDER BY source");

function runView(run: StoredRun, checks: Database.Statement): RunView {
  return {
    id: run.id,
    startedAt: run.started_at,
    finishedAt: run.finished_at,
    outcome: run.outcome,
    sources: (checks.all(run.id) as { source: string; result: CheckResult; detail: string | null }[]).map((check) => ({
      sourceId: check.source,
      check: check.result,
      detail: check.detail,
    })),
  };
}
