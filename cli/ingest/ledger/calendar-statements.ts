import type Database from "better-sqlite3";
import type { CalendarSource } from "../../../schemas/vocabularies.ts";

/** A calendar snapshot the ledger applied: when it was fetched, the dates it covers, and the fetch that brought it. */
interface AppliedSnapshot {
  source: string;
  /** When the publisher served it; '' when nothing records that (an old recording), which is older than any time. */
  fetched_at: string;
  first_date: string;
  last_date: string;
  sha256: string;
  run_id: string;
  /** The ledger's time of that fetch (its changes' `detectedAt`). */
  at: string;
}

/**
 * What each calendar snapshot stated, and when: the fetch time of the newest snapshot that listed each record, and the
 * dates every applied snapshot covers. A snapshot older than what the ledger already holds (a re-recorded copy of an
 * old one, a replay after newer fetches) must not undo what a newer one said: `apply-calendar.ts` asks here.
 * Fetch times are compared as text, '' standing for an unknown one.
 */
export function calendarStatements(db: Database.Database) {
  const statements = {
    statedAt: db.prepare("SELECT stated_at FROM calendar_statements WHERE source = ? AND source_event_id = ?").pluck(),
    state: db.prepare(`INSERT INTO calendar_statements (source, source_event_id, stated_at) VALUES (?, ?, ?)
      ON CONFLICT (source, source_event_id) DO UPDATE SET stated_at = max(stated_at, excluded.stated_at)`),
    recordSnapshot:
      db.prepare(`INSERT OR IGNORE INTO calendar_snapshots (source, fetched_at, first_date, last_date, sha256, run_id, at)
      VALUES (@source, @fetched_at, @first_date, @last_date, @sha256, @run_id, @at)`),
    newerCovering: db.prepare(`SELECT * FROM calendar_snapshots WHERE source = ? AND fetched_at > ? AND first_date <= ?
      AND last_date >= ? ORDER BY fetched_at, sha256 LIMIT 1`),
  };
  return {
    /** Whether a snapshot fetched after `fetchedAt` listed the record (so it, not this one, says what the record is). */
    statedLater: (source: CalendarSource, sourceEventId: string, fetchedAt: string): boolean => {
      const stated = statements.statedAt.get(source, sourceEventId) as string | undefined;
      return stated !== undefined && stated > fetchedAt;
    },
    state: (source: CalendarSource, sourceEventId: string, fetchedAt: string) =>
      statements.state.run(source, sourceEventId, fetchedAt),
    recordSnapshot: (snapshot: AppliedSnapshot) => statements.recordSnapshot.run(snapshot),
    /** The first snapshot fetched after `fetchedAt` whose dates include `date`: it did not list a record new here. */
    newerCovering: (source: CalendarSource, fetchedAt: string, date: string) =>
      statements.newerCovering.get(source, fetchedAt, date, date) as AppliedSnapshot | undefined,
  };
}

export type CalendarStatements = ReturnType<typeof calendarStatements>;
