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
  const sql =
    "SELECT source AS id, last_received_at AS lastReceivedDataAt, last_success_at AS lastSuccessAt, latest_check AS latestCheck FROM source_checks";
  const bySource = new Map(((db ? prepared(db, sql).all() : []) as FeedCheck[]).map((row) => [row.id, row]));
  return sources.map(
    (id) => bySource.get(id) ?? { id, lastReceivedDataAt: null, lastSuccessAt: null, latestCheck: "not_recorded" },
  );
}

/** Every calendar source as the public calendar's `meta.sourceChecks` states it. */
export function readSourceChecks(db: Database.Database) {
  return readFeedChecks(db, CALENDAR_SOURCES).map((check) => ({
    sourceId: check.id,
    lastSuccessAt: check.lastSuccessAt,
    latestCheck: check.latestCheck,
  }));
}
