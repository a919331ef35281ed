import type Database from "better-sqlite3";
import { CALENDAR_SOURCES, type CheckResult } from "../../schemas/vocabularies.ts";
import { prepared } from "../storage/prepared.ts";

export interface FeedCheck {
  id: string;
  lastReceivedDataAt: string | null;
  lastSuccessAt: string | null;
  latestCheck: CheckResult | "not_recorded";
}

/** The listed sources with their latest check; `not_recorded` for a source never checked. */
export function readFeedChecks(db: Database.Database | null, sources: readonly string[]): FeedCheck[] {
  const rows = db
    ? (prepared(db, "SELECT source, last_received_at, last_success_at, latest_check FROM source_checks").all() as {
        source: string;
        last_received_at: string | null;
        last_success_at: string | null;
        latest_check: FeedCheck["latestCheck"];
      }[])
    : [];
  const bySource = new Map(rows.map((row) => [row.source, row]));
  return sources.map((source) => ({
    id: source,
    lastReceivedDataAt: bySource.get(source)?.last_received_at ?? null,
    lastSuccessAt: bySource.get(source)?.last_success_at ?? null,
    latestCheck: bySource.get(source)?.latest_check ?? "not_recorded",
  }));
}

/** Every calendar source as the public calendar's `meta.sourceChecks` states it. */
export function readSourceChecks(db: Database.Database) {
  return readFeedChecks(db, CALENDAR_SOURCES).map((check) => ({
    sourceId: check.id,
    lastSuccessAt: check.lastSuccessAt,
    latestCheck: check.latestCheck,
  }));
}
