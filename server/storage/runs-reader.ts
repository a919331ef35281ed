import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { DATA_FILES } from "../../schemas/data-files.ts";
import type { CheckResult, RunOutcome } from "../../schemas/vocabularies.ts";
import { ApiError } from "../http/api-error.ts";

const RECENT_RUNS = 20;

/**
 * The most recent ingestion runs of the ledger with their source checks, newest first; empty when none ever ran
 * (no store yet, or a first run that has created the file but not yet its tables). A store that cannot be read is
 * STORAGE_UNAVAILABLE.
 */
export function readRecentRuns(dataDir: string) {
  return withLedger<RunView[]>(dataDir, [], (db) => {
    const runs = db
      .prepare("SELECT id, started_at, finished_at, outcome FROM runs ORDER BY started_at DESC LIMIT ?")
      .all(RECENT_RUNS) as StoredRun[];
    const checks = checksOf(db);
    return runs.map((run) => runView(run, checks));
  });
}

/** One run of the ledger with its source checks and, when it failed as a whole, why; null when the ledger has no such run. */
export function readRun(dataDir: string, id: string) {
  return withLedger<(RunView & { detail: string | null }) | null>(dataDir, null, (db) => {
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

export interface RunView {
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

/** Reads the ledger read-only; `none` when it does not exist yet. A ledger that cannot be read is STORAGE_UNAVAILABLE. */
function withLedger<T>(dataDir: string, none: T, read: (db: Database.Database) => T): T {
  const path = join(dataDir, DATA_FILES.store);
  if (!existsSync(path)) return none;
  let db: Database.Database | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'source_checks'").get()) return none;
    return read(db);
  } catch {
    throw new ApiError("STORAGE_UNAVAILABLE");
  } finally {
    db?.close();
  }
}
