import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { DATA_FILES } from "../../schemas/data-files.ts";
import { RUN_OUTCOMES, type RunOutcome } from "../../schemas/vocabularies.ts";

/**
 * How many ingestion runs the store's ledger records with each outcome; all zero when none ever ran (no store yet, or
 * a first run that has created the file but not yet its tables). Throws when the store cannot be read.
 */
export function countRunsByOutcome(dataDir: string): Record<RunOutcome, number> {
  const counts = Object.fromEntries(RUN_OUTCOMES.map((outcome) => [outcome, 0])) as Record<RunOutcome, number>;
  const path = join(dataDir, DATA_FILES.store);
  if (!existsSync(path)) return counts;
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'").get()) return counts;
    const rows = db.prepare("SELECT outcome, COUNT(*) AS runs FROM runs GROUP BY outcome").all() as {
      outcome: RunOutcome;
      runs: number;
    }[];
    for (const row of rows) counts[row.outcome] = row.runs;
    return counts;
  } finally {
    db.close();
  }
}
