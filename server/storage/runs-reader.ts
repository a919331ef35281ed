import Database from "better-sqlite3";
import { existsSync } from "node:fs";
import { join } from "node:path";
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
  const path = join(dataDir, DATA_FILES.store);
  if (!existsSync(path)) return [];
  let db: Database.Database | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'source_checks'").get()) return [];
    const runs = db.prepare("SELECT id, started_at, finished_at, outcome FROM runs ORDER BY started_at DESC LIMIT ?").all(RECENT_RUNS) as
      { id: string; started_at: string; finished_at: string | null; outcome: RunOutcome }[];
    const checks = db.prepare("SELECT source, result, detail FROM source_checks WHERE run_id = ? ORDER BY source");
    return runs.map((run) => ({
      id: run.id,
      startedAt: run.started_at,
      finishedAt: run.finished_at,
      outcome: run.outcome,
      sources: (checks.all(run.id) as { source: string; result: CheckResult; detail: string | null }[])
        .map((check) => ({ sourceId: check.source, check: check.result, detail: check.detail })),
    }));
  } catch {
    throw new ApiError("STORAGE_UNAVAILABLE");
  } finally {
    db?.close();
  }
}
