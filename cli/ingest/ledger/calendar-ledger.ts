import type Database from "better-sqlite3";
import type { CalendarSource } from "../../../schemas/vocabularies.ts";
import type { SkippedCalendarRecord } from "../records.ts";
import type { UncuratedRelease } from "../uncurated-releases.ts";

/**
 * The ledger's calendar bookkeeping beside its events: the uncurated releases, the records that did not become events
 * (with their reasons), and an event's move to another release when the registry starts or stops curating its title.
 */
export function calendarLedger(db: Database.Database) {
  const statements = {
    saveUncurated: db.prepare(
      "INSERT OR IGNORE INTO uncurated_releases (slug, name, source, first_seen_at) VALUES (@slug, @name, @source, @firstSeenAt)",
    ),
    uncurated: db.prepare("SELECT slug, name, source FROM uncurated_releases ORDER BY slug"),
    saveSkip:
      db.prepare(`INSERT INTO skipped_calendar_records (source, record, reason, detail, title, scheduled_date, first_seen_at, last_seen_at, run_id)
      VALUES (@source, @record, @reason, @detail, @title, @scheduledDate, @at, @at, @runId)
      ON CONFLICT (source, record, reason) DO UPDATE SET detail = excluded.detail, title = excluded.title,
        scheduled_date = excluded.scheduled_date, last_seen_at = max(last_seen_at, excluded.last_seen_at), run_id = excluded.run_id`),
    moveToRelease: db.prepare("UPDATE events SET release_slug = ?, updated_at = ? WHERE id = ?"),
  };
  return {
    saveUncurated: (release: UncuratedRelease, firstSeenAt: string) =>
      statements.saveUncurated.run({ ...release, firstSeenAt }),
    uncurated: () => statements.uncurated.all() as UncuratedRelease[],
    saveSkip: (source: CalendarSource, skipped: SkippedCalendarRecord, at: string, runId: string) =>
      statements.saveSkip.run({
        source,
        record: skipped.record,
        reason: skipped.kind,
        detail: skipped.reason,
        title: skipped.title,
        scheduledDate: skipped.scheduledDate,
        at,
        runId,
      }),
    moveToRelease: (eventId: string, releaseSlug: string, at: string) =>
      statements.moveToRelease.run(releaseSlug, at, eventId),
  };
}

export type CalendarLedger = ReturnType<typeof calendarLedger>;
