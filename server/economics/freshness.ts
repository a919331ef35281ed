import type Database from "better-sqlite3";
import type { PublicationFacts } from "../../schemas/index-ddl.ts";
import { DATA_FRESH_HOURS } from "../../schemas/limits.ts";
import { CALENDAR_SOURCES, type CheckResult, type DataStatus } from "../../schemas/vocabularies.ts";
import { prepared } from "../storage/prepared.ts";

/** The economics freshness fields of credentialed answers, from the facts of the run that published the index. */
export function credentialedFreshnessMeta(facts: PublicationFacts) {
  return {
    lastIngestedAt: facts.lastIngestedAt,
    lastSuccessfulIngestionAt: facts.lastSuccessfulIngestionAt,
    dataUpdatedAt: facts.dataRebuiltAt,
  };
}

/** Public answers also state `dataStatus` (spec: public economics and news). */
export function freshnessMeta(facts: PublicationFacts, now: number) {
  return { ...credentialedFreshnessMeta(facts), dataStatus: dataStatusOf(facts.lastSuccessfulIngestionAt, now) };
}

export function dataStatusOf(lastSuccessAt: string | null, now: number): DataStatus {
  if (lastSuccessAt === null) return "unavailable";
  return now - Date.parse(lastSuccessAt) <= DATA_FRESH_HOURS * 3_600_000 ? "fresh" : "stale";
}

/** When the data status turns from fresh to stale by the clock alone; Infinity when it will not. */
export function dataStatusChangesAt(lastSuccessAt: string | null, now: number): number {
  if (dataStatusOf(lastSuccessAt, now) !== "fresh") return Number.POSITIVE_INFINITY;
  return Date.parse(lastSuccessAt!) + DATA_FRESH_HOURS * 3_600_000 + 1;
}

/** The latest of some ISO instants (all in the same UTC form), or null when none is known. */
export const latestOf = (times: (string | null)[]): string | null =>
  times
    .filter((time): time is string => time !== null)
    .sort()
    .at(-1) ?? null;

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
