import Database from "better-sqlite3";
import { readdirSync, rmSync } from "node:fs";
import { replaceAtomically } from "../../server/files/atomic-write.ts";
import { join } from "node:path";
import { DATA_FILES } from "../../schemas/data-files.ts";
import { INDEX_DDL, type IndexObservationRow, type PublicationFacts } from "../../schemas/index-ddl.ts";
import { upstreamSeriesKey, type Registry } from "../../schemas/registry.ts";
import { deriveYearAgoChange } from "./derive-series.ts";
import { writeNews } from "./publish-news.ts";
import { eventRecord, type EventRecord, type PeriodValue, type StoredEvidence } from "./event-record.ts";
import type { Store, StoredEvent, StoredEventSource, StoredVintage } from "./store.ts";

interface BuiltEvent {
  record: EventRecord;
  sources: string[];
}

/**
 * Builds `index.sqlite` beside the live file, complete and closed, then renames it over the live one,
 * so the server never reads a half-written index. Returns the path of the published file.
 */
export function publishIndex(store: Store, registry: Registry, dataDir: string, facts: PublicationFacts): string {
  const live = join(dataDir, DATA_FILES.index);
  const building = `${live}.${process.pid}.building`;
  removeAbandonedBuilds(dataDir);
  const index = new Database(building);
  try {
    index.exec(INDEX_DDL);
    index.transaction(() => {
      const observations = servedObservations(store, registry);
      const events = buildEvents(store, registry, observations);
      stampPublicationTimes(observations, events, registry);
      writeObservations(index, observations);
      writeEvents(index, events);
      writeSourceChecks(index, store);
      writeNews(index, store, registry);
      const insertFact = index.prepare("INSERT INTO publication (key, value) VALUES (?, ?)");
      for (const [key, value] of Object.entries(facts)) insertFact.run(key, value);
    })();
    index.pragma("journal_mode = DELETE");
  } finally {
    index.close();
  }
  replaceAtomically(building, live);
  return live;
}

/** Half-built indexes of killed runs: the server never reads them, so they are only disk to reclaim. */
function removeAbandonedBuilds(dataDir: string): void {
  for (const name of readdirSync(dataDir)) {
    if (name.startsWith(`${DATA_FILES.index}.`) && name.endsWith(".building")) rmSync(join(dataDir, name), { force: true });
  }
}

/** The current vintage of every period, with its revision facts; derived series computed from their inputs. */
function servedObservations(store: Store, registry: Registry): IndexObservationRow[] {
  const vintages = store.db.prepare("SELECT * FROM vintages ORDER BY series_slug, reference_period, sequence").all() as StoredVintage[];
  const served = new Map<string, IndexObservationRow>();
  for (const vintage of vintages) {
    const key = `${vintage.series_slug}\n${vintage.reference_period}`;
    const earlier = served.get(key);
    served.set(key, {
      series_slug: vintage.series_slug,
      reference_period: vintage.reference_period,
      value: vintage.value,
      publication_status: vintage.publication_status,
      revision_count: vintage.sequence - 1,
      previous_value: earlier ? earlier.value : null,
      source_updated_at: vintage.source_updated_at,
      ingested_at: vintage.ingested_at,
      published_at: null,
      derived_inputs: null,
    });
  }
  const observations = [...served.values()];
  for (const series of registry.series) {
    if (!series.derived) continue;
    const inputSeries = registry.series.find((candidate) => candidate.slug === series.derived!.inputSeriesSlug);
    const inputRows = observations.filter((row) => row.series_slug === series.derived!.inputSeriesSlug);
    const input = new Map(inputRows.map((row) => [row.reference_period, row.value]));
    const ingestedAt = new Map(inputRows.map((row) => [row.reference_period, row.ingested_at]));
    const inputId = inputSeries?.upstream ? upstreamSeriesKey(inputSeries.upstream) : series.derived.inputSeriesSlug;
    for (const value of deriveYearAgoChange(series.derived, inputId, input)) {
      observations.push({
        series_slug: series.slug, reference_period: value.referencePeriod, value: value.value, publication_status: null,
        revision_count: 0, previous_value: null, source_updated_at: null, ingested_at: ingestedAt.get(value.referencePeriod)!,
        published_at: null, derived_inputs: JSON.stringify(value.inputs),
      });
    }
  }
  return observations;
}

function writeObservations(index: Database.Database, observations: IndexObservationRow[]): void {
  const insert = index.prepare(`INSERT INTO observations VALUES (@series_slug, @reference_period, @value, @publication_status, @revision_count,
    @previous_value, @source_updated_at, @ingested_at, @published_at, @derived_inputs)`);
  for (const row of observations) insert.run(row);
  index.exec(`INSERT INTO series_facts SELECT series_slug, max(ingested_at), count(*) FROM observations GROUP BY series_slug`);
}

function buildEvents(store: Store, registry: Registry, observations: IndexObservationRow[]): BuiltEvent[] {
  const bySeries = new Map<string, IndexObservationRow[]>();
  for (const row of observations) bySeries.set(row.series_slug, [...(bySeries.get(row.series_slug) ?? []), row]);
  const toValue = (row: IndexObservationRow | undefined): PeriodValue | null => row ? { seriesSlug: row.series_slug, referencePeriod: row.reference_period, value: row.value } : null;
  const values = {
    current: (slug: string, period: string) => toValue(bySeries.get(slug)?.find((row) => row.reference_period === period)),
    before: (slug: string, period: string) => toValue((bySeries.get(slug) ?? []).filter((row) => row.reference_period < period).at(-1)),
  };
  const releases = new Map(registry.releases.map((release) => [release.slug, release]));
  const sourcesOf = store.db.prepare("SELECT * FROM event_sources WHERE event_id = ? ORDER BY first_seen_at, source");
  const evidenceOf = store.db.prepare("SELECT kind, observed_at, released_at, detail, url FROM evidence WHERE event_id = ? ORDER BY observed_at, kind");
  const built: BuiltEvent[] = [];
  for (const event of store.db.prepare("SELECT * FROM events ORDER BY id").all() as StoredEvent[]) {
    const release = releases.get(event.release_slug);
    if (!release) continue;
    const sources = sourcesOf.all(event.id) as StoredEventSource[];
    built.push({ record: eventRecord(event, release, sources, evidenceOf.all(event.id) as StoredEvidence[], values), sources: sources.map((source) => source.source) });
  }
  return built;
}

/** A value's `publishedAt` is the release time of a confirmed event of a release publishing it, for that period. */
function stampPublicationTimes(observations: IndexObservationRow[], events: BuiltEvent[], registry: Registry): void {
  const releasedAt = new Map<string, string>();
  for (const { record } of events) {
    if (!record.referencePeriod || !record.publication.releasedAt) continue;
    const release = registry.releases.find((candidate) => candidate.slug === record.release.slug)!;
    for (const seriesSlug of release.seriesSlugs) {
      const key = `${seriesSlug}\n${record.referencePeriod.code}`;
      const known = releasedAt.get(key);
      if (!known || record.publication.releasedAt < known) releasedAt.set(key, record.publication.releasedAt);
    }
  }
  for (const row of observations) row.published_at = releasedAt.get(`${row.series_slug}\n${row.reference_period}`) ?? null;
}

function writeEvents(index: Database.Database, events: BuiltEvent[]): void {
  const insertEvent = index.prepare("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const insertSource = index.prepare("INSERT OR IGNORE INTO event_sources VALUES (?, ?)");
  for (const { record, sources } of events) {
    insertEvent.run(record.id, record.scheduledDate, record.scheduledAt, record.release.slug, record.country, record.region, record.currency,
      record.importance, record.status, record.publication.confirmed ? 1 : 0, JSON.stringify(record));
    for (const source of sources) insertSource.run(record.id, source);
  }
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
