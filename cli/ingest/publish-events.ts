import Database from "better-sqlite3";
import { INDEX_DDL } from "../../schemas/index-ddl.ts";
import type { Registry } from "../../schemas/registry.ts";
import { calendarLedger } from "./calendar-ledger.ts";
import { eventRecord } from "./event-record.ts";
import { releaseValueLookup } from "./event-values.ts";
import { servedEvents } from "./served-events.ts";
import { claimShares, type EventShares } from "./event-shares.ts";
import { uncuratedReleaseRecord } from "./uncurated-releases.ts";

/** What the events thread is given (events-worker.ts): plain data, cloned across threads, and the shares' shared counter. */
export interface EventsFileRequest {
  storePath: string;
  path: string;
  registry: Registry;
  shares: EventShares;
}

/**
 * The events thread's part: writes the index's `events` and `event_sources` for the shares of events it claims into a
 * file of their own, with the index's own tables so that its rows copy column for column. publish-index.ts runs this
 * on a worker thread while it writes the observations, then claims the shares still left itself. The file is a step of
 * a build that is thrown away on any failure, so it is written without a journal or syncs.
 */
export function writeEventsFile({ storePath, path, registry, shares }: EventsFileRequest): Map<string, string> {
  const file = new Database(path);
  try {
    file.pragma("journal_mode = OFF");
    file.pragma("synchronous = OFF");
    file.exec(INDEX_DDL);
    return writeClaimedEvents(file, storePath, registry, shares);
  } finally {
    file.close();
  }
}

/**
 * Writes every event of the shares this thread claims, with its record, into `file`'s events tables, as each is built
 * (never all held at once), from the ledger at `storePath` read in one snapshot. Returns, per series and period, the
 * earliest release time of a confirmed event publishing it, for the observations' `published_at` (earliestReleases).
 */
export function writeClaimedEvents(file: Database.Database, storePath: string, registry: Registry, shares: EventShares): Map<string, string> {
  const ledger = new Database(storePath, { readonly: true, fileMustExist: true });
  try {
    // One read transaction: one snapshot, and no lock taken and released around each of the many statements.
    ledger.exec("BEGIN");
    return file.transaction(() => writeEvents(file, ledger, registry, shares))();
  } finally {
    ledger.close();
  }
}

/** The earliest release time per series and period of both maps (writeClaimedEvents), gathered in `into`. */
export function earliestReleases(into: Map<string, string>, from: Map<string, string>): Map<string, string> {
  for (const [key, releasedAt] of from) keepEarliest(into, key, releasedAt);
  return into;
}

function keepEarliest(times: Map<string, string>, key: string, time: string): void {
  const known = times.get(key);
  if (!known || time < known) times.set(key, time);
}

function writeEvents(file: Database.Database, ledger: Database.Database, registry: Registry, shares: EventShares): Map<string, string> {
  const valuesFor = releaseValueLookup(ledger, registry);
  // Uncurated releases first, so that a slug the registry has since taken up serves the registry's release.
  const releases = new Map([...calendarLedger(ledger).uncurated().map(uncuratedReleaseRecord), ...registry.releases].map((release) => [release.slug, release]));
  const insertEvent = file.prepare("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const insertSource = file.prepare("INSERT OR IGNORE INTO event_sources VALUES (?, ?)");
  const releasedAt = new Map<string, string>();
  for (const range of claimShares(shares)) {
    for (const { event, sources, evidence, changes } of servedEvents(ledger, range)) {
      const release = releases.get(event.release_slug);
      if (!release) continue;
      const record = eventRecord(event, release, sources, evidence, valuesFor(event), changes);
      insertEvent.run(record.id, record.scheduledDate, record.scheduledAt, record.release.slug, record.country, record.region, record.currency,
        record.importance, record.status, record.publication.confirmed ? 1 : 0, JSON.stringify(record));
      for (const source of sources) insertSource.run(record.id, source.source);
      if (!record.referencePeriod || !record.publication.releasedAt) continue;
      for (const seriesSlug of release.seriesSlugs) keepEarliest(releasedAt, `${seriesSlug}\n${record.referencePeriod.code}`, record.publication.releasedAt);
    }
  }
  return releasedAt;
}
