import Database from "better-sqlite3";
import { INDEX_DDL } from "../../../schemas/index-ddl.ts";
import type { Registry } from "../../../schemas/registry.ts";
import { eventRecord } from "../event-record.ts";
import { releaseValueLookup } from "../event-values.ts";
import { calendarLedger } from "../ledger/calendar-ledger.ts";
import { uncuratedReleaseRecord } from "../uncurated-releases.ts";
import { claimShares, type EventShares, endClaims, everyShare } from "./event-shares.ts";
import { servedEvents } from "./served-events.ts";

/** What a thread writing events is given (events-worker.ts): plain data, cloned across threads, and the shares' shared counter. */
export interface EventsFileRequest {
  storePath: string;
  path: string;
  registry: Registry;
  shares: EventShares;
}

/**
 * Writes the index's `events` and `event_sources` for the shares of events this thread claims into a file of their
 * own, with the index's own tables so that their rows copy column for column (copyEventsInIdOrder). publish-index.ts
 * runs this on a worker thread while it writes the observations, then on its own thread for the shares still left.
 * Each thread reads the ledger at `storePath` in a snapshot of its own: the same data, since nothing writes the ledger
 * while a run under the ingestion lock publishes. The file is a step of a build that is thrown away on any failure,
 * so it is written without a journal or syncs; a failure also ends the other thread's claims, so it does not go on
 * writing events for a build that is lost. Returns, per series and period, the earliest release time of a confirmed
 * event publishing it, for the observations' `published_at` (mergeEarliestReleases).
 */
export function writeEventsFile({ storePath, path, registry, shares }: EventsFileRequest): Map<string, string> {
  try {
    const ledger = new Database(storePath, { readonly: true, fileMustExist: true });
    try {
      const file = new Database(path);
      try {
        file.pragma("journal_mode = OFF");
        file.pragma("synchronous = OFF");
        file.exec(INDEX_DDL);
        // One read transaction: one snapshot, and no lock taken and released around each of the many statements.
        ledger.exec("BEGIN");
        return file.transaction(() => writeEvents(file, ledger, registry, shares))();
      } finally {
        file.close();
      }
    } finally {
      ledger.close();
    }
  } catch (error) {
    endClaims(shares);
    throw error;
  }
}

/**
 * Copies the events files' rows (attached to `index` under `schemas`) into the index share by share, so that its
 * rows stand in id order whichever thread wrote each share: the same ledger publishes the same file, byte for byte.
 */
export function copyEventsInIdOrder(index: Database.Database, shares: EventShares, schemas: readonly string[]): void {
  const copies = schemas.flatMap((schema) => [
    index.prepare(`INSERT INTO events SELECT * FROM ${schema}.events WHERE id > ? AND id <= ? ORDER BY id`),
    index.prepare(
      `INSERT INTO event_sources SELECT * FROM ${schema}.event_sources WHERE event_id > ? AND event_id <= ? ORDER BY rowid`,
    ),
  ]);
  for (const { after, through } of everyShare(shares)) for (const copy of copies) copy.run(after, through);
}

/** The earliest release time per series and period of both maps (writeEventsFile), gathered in `into`. */
export function mergeEarliestReleases(into: Map<string, string>, from: Map<string, string>): Map<string, string> {
  for (const [key, releasedAt] of from) keepEarliest(into, key, releasedAt);
  return into;
}

function keepEarliest(times: Map<string, string>, key: string, time: string): void {
  const known = times.get(key);
  if (!known || time < known) times.set(key, time);
}

/** Every event of the shares this thread claims with its record, written as it is built (never all held at once). */
function writeEvents(
  file: Database.Database,
  ledger: Database.Database,
  registry: Registry,
  shares: EventShares,
): Map<string, string> {
  const valuesFor = releaseValueLookup(ledger, registry);
  // Uncurated releases first, so that a slug the registry has since taken up serves the registry's release.
  const releases = new Map(
    [...calendarLedger(ledger).uncurated().map(uncuratedReleaseRecord), ...registry.releases].map((release) => [
      release.slug,
      release,
    ]),
  );
  const insertEvent = file.prepare("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const insertSource = file.prepare("INSERT OR IGNORE INTO event_sources VALUES (?, ?)");
  const releasedAt = new Map<string, string>();
  for (const range of claimShares(shares)) {
    for (const { event, sources, evidence, changes } of servedEvents(ledger, range)) {
      const release = releases.get(event.release_slug);
      if (!release) continue;
      const record = eventRecord(event, release, sources, evidence, valuesFor(event), changes);
      insertEvent.run(
        record.id,
        record.scheduledDate,
        record.scheduledAt,
        record.release.slug,
        record.country,
        record.region,
        record.currency,
        record.importance,
        record.status,
        record.publication.confirmed ? 1 : 0,
        JSON.stringify(record),
      );
      for (const source of sources) insertSource.run(record.id, source.source);
      if (!record.referencePeriod || !record.publication.releasedAt) continue;
      for (const seriesSlug of release.seriesSlugs)
        keepEarliest(releasedAt, `${seriesSlug}\n${record.referencePeriod.code}`, record.publication.releasedAt);
    }
  }
  return releasedAt;
}
