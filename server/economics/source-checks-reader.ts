import type Database from "better-sqlite3";
import { CALENDAR_SOURCES } from "../../schemas/vocabularies.ts";

/** Every calendar source with its last success and latest check; `not_recorded` for a source never checked. */
export function readSourceChecks(db: Database.Database) {
  const rows = db.prepare("SELECT source, last_success_at, latest_check FROM source_checks").all() as { source: string; last_success_at: string | null; latest_check: string }[];
  const bySource = new Map(rows.map((row) => [row.source, row]));
  return CALENDAR_SOURCES.map((source) => ({
    sourceId: source,
    lastSuccessAt: bySource.get(source)?.last_success_at ?? null,
    latestCheck: (bySource.get(source)?.latest_check ?? "not_recorded") as "successful" | "incomplete" | "not_recorded",
  }));
}
