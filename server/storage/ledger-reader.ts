import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { DATA_FILES } from "../../schemas/data-files.ts";
import type { Static } from "../../schemas/json-schema.ts";
import type { runSchema } from "../../schemas/responses/admin.ts";
import { RUN_OUTCOMES, type RunOutcome } from "../../schemas/vocabularies.ts";
import { ApiError } from "../http/api-error.ts";
import { hasTable } from "./has-table.ts";

const RECENT_RUNS = 20;

/** Reads the store's ledger; `none` when no run created it or `table` (yet). Throws when it cannot be read. */
function readLedger<T>(dataDir: string, table: string, none: T, read: (db: Database.Database) => T): T {
  const path = join(dataDir, DATA_FILES.store);
  if (!existsSync(path)) return none;
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    if (!hasTable(db, table)) return none;
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

const LATENCIES = "SELECT source, latency_seconds AS seconds FROM found_releases WHERE latency_seconds IS NOT NULL";
type ReleaseLatency = { source: string; seconds: number };

/** How long after their scheduled instants releases were found (schemas/release-latency.ts), by source. */
export function readReleaseLatencies(dataDir: string): ReleaseLatency[] {
  return readLedger(dataDir, "found_releases", [], (db) => db.prepare(LATENCIES).all() as ReleaseLatency[]);
}

const RUN_COLUMNS = "id, started_at AS startedAt, finished_at AS finishedAt, outcome";

type RunView = Static<typeof runSchema>;

function withChecks(db: Database.Database) {
  const checks = db.prepare(
    'SELECT source AS sourceId, result AS "check", detail FROM source_checks WHERE run_id = ? ORDER BY source',
  );
  return (run: Omit<RunView, "sources">): RunView => ({ ...run, sources: checks.all(run.id) as RunView["sources"] });
}

/** The most recent ingestion runs of the ledger with their source checks, newest first. */
export function readRecentRuns(dataDir: string): RunView[] {
  return readRuns(dataDir, [], (db) => {
    const runs = db.prepare(`SELECT ${RUN_COLUMNS} FROM runs ORDER BY started_at DESC LIMIT ?`).all(RECENT_RUNS);
    return (runs as Omit<RunView, "sources">[]).map(withChecks(db));
  });
}

/** One run with its source checks and, when it failed as a whole, why; null when the ledger has no such run. */
export function readRun(dataDir: string, id: string): (RunView & { detail: string | null }) | null {
  return readRuns(dataDir, null, (db) => {
    const found = db.prepare(`SELECT ${RUN_COLUMNS}, summary FROM runs WHERE id = ?`).get(id) as
      | (Omit<RunView, "sources"> & { summary: string | null })
      | undefined;
    if (!found) return null;
    const { summary, ...run } = found;
    const error = summary ? (JSON.parse(summary) as { error?: unknown }).error : undefined;
    return { ...withChecks(db)(run), detail: typeof error === "string" ? error : null };
  });
}
