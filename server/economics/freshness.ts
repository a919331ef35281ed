import type { PublicationFacts } from "../../schemas/index-ddl.ts";
import { DATA_FRESH_HOURS } from "../../schemas/limits.ts";
import type { DataStatus } from "../../schemas/vocabularies.ts";

/** The economics freshness fields of credentialed answers, from the facts of the run that published the index. */
export function credentialedFreshnessMeta(facts: PublicationFacts) {
  return {
    lastIngestedAt: facts.lastIngestedAt,
    lastSuccessfulIngestionAt: facts.lastSuccessfulIngestionAt,
    dataUpdatedAt: facts.publishedAt,
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
