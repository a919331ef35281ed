import Database from "better-sqlite3";
import { existsSync, rmSync } from "node:fs";
import { replaceAtomically } from "../../server/files/atomic-write.ts";
import { removeAbandonedFiles } from "../abandoned-files.ts";
import { join } from "node:path";
import { DATA_FILES } from "../../schemas/data-files.ts";
import { INDEX_DDL, type PublicationFacts } from "../../schemas/index-ddl.ts";
import type { Registry } from "../../schemas/registry.ts";
import { calendarLedger } from "./calendar-ledger.ts";
import { writeNews } from "./publish-news.ts";
import { uncuratedReleaseRecord } from "./uncurated-releases.ts";
import { eventRecord } from "./event-record.ts";
import { releaseValueLookup, stampPublicationTimes, writeServedObservations } from "./index-observations.ts";
import { servedEvents } from "./served-events.ts";
import type { Store } from "./store.ts";

/**
 * Builds `index.sqlite` beside the live file, complete and closed, then renames it over the live one,
 * so the server never reads a half-written index. Returns the path of the published file.
 */
export function publishIndex(store: Store, registry: Registry, dataDir: string, facts: PublicationFacts): string {
  const live = join(dataDir, DATA_FILES.index);
  const building = `${live}.${process.pid}.building`;
  // Half-built indexes of killed runs: the server never reads them, so they are only disk to reclaim. A run publishes
  // under the ingestion lock, so no other build can be under way.
  removeAbandonedFiles(live, "building", "none");
  const index = new Database(building);
  try {
    buildIndex(index, store, registry, facts);
    index.close();
    replaceAtomically(building, live);
  } catch (error) {
    // A build that failed (a full disk) leaves nothing behind: the live index stays, and so does the disk space.
    if (index.open) index.close();
    rmSync(building, { force: true });
    throw error;
  }
  return live;
}

function buildIndex(index: Database.Database, store: Store, registry: Registry, facts: PublicationFacts): void {
  index.exec(INDEX_DDL);
  index.prepare("ATTACH DATABASE ? AS ledger").run(store.db.name);
  index.transaction(() => {
    writeServedObservations(index, registry);
    stampPublicationTimes(index, writeEvents(index, store, registry));
    writeSourceChecks(index, store);
    writeNews(index, store, registry);
    const insertFact = index.prepare("INSERT INTO publication (key, value) VALUES (?, ?)");
    for (const [key, value] of Object.entries(facts)) insertFact.run(key, value);
  })();
  index.exec("DETACH DATABASE ledger");
  index.pragma("journal_mode = DELETE");
}

/** A fact the live index states, or null when there is no readable index or it states none. */
export function publishedFact(dataDir: string, key: keyof PublicationFacts): string | null {
  const live = join(dataDir, DATA_FILES.index);
  if (!existsSync(live)) return null;
  try {
    const index = new Database(live, { readonly: true, fileMustExist: true });
    try {
      return (index.prepare("SELECT value FROM publication WHERE key = ?").pluck().get(key) as string | null | undefined) ?? null;
    } finally {
      index.close();
    }
  } catch {
    return null;
  }
}

/**
 * Every event with its record, written as it is built (never all held at once). Returns, per series and period,
 * the earliest release time of a confirmed event publishing it, for the observations' `published_at`.
 */
function writeEvents(index: Database.Database, store: Store, registry: Registry): Map<string, string> {
  const valuesFor = releaseValueLookup(index);
  // Uncurated releases first, so that a slug the registry has since taken up serves the registry's release.
  const releases = new Map([...calendarLedger(store.db).uncurated().map(uncuratedReleaseRecord), ...registry.releases].map((release) => [release.slug, release]));
  const insertEvent = index.prepare("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const insertSource = index.prepare("INSERT OR IGNORE INTO event_sources VALUES (?, ?)");
  const releasedAt = new Map<string, string>();
  for (const { event, sources, evidence, changes } of servedEvents(store.db)) {
    const release = releases.get(event.release_slug);
    if (!release) continue;
    const record = eventRecord(event, release, sources, evidence, valuesFor(event), changes);
    insertEvent.run(record.id, record.scheduledDate, record.scheduledAt, record.release.slug, record.country, record.region, record.currency,
      record.importance, record.status, record.publication.confirmed ? 1 : 0, JSON.stringify(record));
    for (const source of sources) insertSource.run(record.id, source.source);
    if (!record.referencePeriod || !record.publication.releasedAt) continue;
    for (const seriesSlug of release.seriesSlugs) {
      const key = `${seriesSlug}\n${record.referencePeriod.code}`;
      const known = releasedAt.get(key);
      if (!known || record.publication.releasedAt < known) releasedAt.set(key, record.publication.releasedAt);
    }
  }
  return releasedAt;
}

/** Per source: its latest check, the last time it succeeded and the last time a document arrived (spec `meta.sourceChecks`, status route). */
function writeSourceChecks(index: Database.Database, store: Store): void {
  const latest = store.db.prepare(`
    SELECT source, result, checked_at,
      (SELECT max(checked_at) FROM source_checks s WHERE s.source = c.source AND s.result = 'successful') AS last_success_at,
      (SELECT max(fetched_at) FROM documents d WHERE d.source = c.source) AS last_received_at
    FROM source_checks c
    WHERE checked_at = (SELECT max(checked_at) FROM source_checks s WHERE s.source = c.source)
    GROUP BY source`).all() as { source: string; result: string; checked_at: string; last_success_at: string | null; last_received_at: string | null }[];
  const insert = index.prepare("INSERT INTO source_checks (source, last_received_at, last_success_at, latest_check, checked_at) VALUES (?, ?, ?, ?, ?)");
  for (const row of latest) insert.run(row.source, row.last_received_at, row.last_success_at, row.result, row.checked_at);
}
