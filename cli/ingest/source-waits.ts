import type Database from "better-sqlite3";

/**
 * A publisher's "ask me again later" kept across runs (the store's `source_waits`): a 429 or 503 whose Retry-After
 * ended a run's asking (fetch-document.ts) is recorded by the run, and a due run started before that instant does not
 * ask that publisher, so that a run every minute does not hammer one that asked it to wait. The hourly full run still
 * asks every source.
 */

export interface SourceWait {
  source: string;
  /** The instant the publisher asked not to be asked before. */
  notBefore: string;
}

/** Records the publisher's ask (the latest one per source counts). */
export function recordSourceWait(db: Database.Database, wait: SourceWait, askedAt: string, runId: string): void {
  db.prepare(`INSERT INTO source_waits (source, not_before, asked_at, run_id) VALUES (?, ?, ?, ?)
    ON CONFLICT (source) DO UPDATE SET not_before = excluded.not_before, asked_at = excluded.asked_at,
      run_id = excluded.run_id`).run(wait.source, wait.notBefore, askedAt, runId);
}

/** The sources asked not to be asked at `nowMs`, with until when; none in a store written before waits were kept. */
export function sourceWaitsAt(db: Database.Database, nowMs: number): Map<string, string> {
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'source_waits'").get()) return new Map();
  const rows = db
    .prepare("SELECT source, not_before AS notBefore FROM source_waits WHERE not_before > ?")
    .all(new Date(nowMs).toISOString()) as SourceWait[];
  return new Map(rows.map((row) => [row.source, row.notBefore]));
}
