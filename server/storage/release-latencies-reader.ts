import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { DATA_FILES } from "../../schemas/data-files.ts";

/**
 * How long after their scheduled instants the ledger's releases were found (schemas/release-latency.ts), by the source
 * of their figures: none when no run has recorded any. Throws when the store cannot be read.
 */
export function readReleaseLatencies(dataDir: string): { source: string; seconds: number }[] {
  const path = join(dataDir, DATA_FILES.store);
  if (!existsSync(path)) return [];
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'found_releases'").get()) return [];
    return db
      .prepare("SELECT source, latency_seconds AS seconds FROM found_releases WHERE latency_seconds IS NOT NULL")
      .all() as { source: string; seconds: number }[];
  } finally {
    db.close();
  }
}
