import type Database from "better-sqlite3";
import { hasTable } from "../../../server/storage/has-table.ts";

/**
 * A publisher's "ask me again later" kept across runs (the store's `source_waits`): a 429 or 503 whose Retry-After
 * ended a run's asking (fetch-document.ts) is recorded by the run, and a due run started before that instant does not
 * ask that publisher, so that a run every minute does not hammer one that asked it to wait. The hourly full run still
 * asks every source.
 */

/**
 * Records a publisher's ask to wait `waitMs` from `nowMs` (the latest one per source counts). A store that cannot
 * record it (a full disk) costs the run nothing: the failure comes back as a line for the source's detail.
 */
export function keepSourceWait(
  db: Database.Database,
  source: string,
  waitMs: number,
  nowMs: number,
  runId: string,
): string | null {
  try {
    db.prepare(`INSERT INTO source_waits (source, not_before, asked_at, run_id) VALUES (?, ?, ?, ?)
      ON CONFLICT (source) DO UPDATE SET not_before = excluded.not_before, asked_at = excluded.asked_at,
        run_id = excluded.run_id`).run(
      source,
      new Date(nowMs + waitMs).toISOString(),
      new Date(nowMs).toISOString(),
      runId,
    );
    return null;
  } catch (error) {
    return `the publisher's Retry-After could not be recorded: ${(error as Error).message}`;
  }
}

/** The sources asked not to be asked at `nowMs`, with until when; none in a store written before waits were kept. */
export function sourceWaitsAt(db: Database.Database, nowMs: number): Map<string, string> {
  if (!hasTable(db, "source_waits")) return new Map();
  const rows = db
    .prepare("SELECT source, not_before AS notBefore FROM source_waits WHERE not_before > ?")
    .all(new Date(nowMs).toISOString()) as { source: string; notBefore: string }[];
  return new Map(rows.map((row) => [row.source, row.notBefore]));
}
