import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type { EventStatus, EvidenceKind } from "../../../schemas/event-record.ts";
import { STORE_DDL, VINTAGE_PROVENANCE_COLUMNS } from "../../../schemas/store-ddl.ts";
import type { ProvenanceColumns } from "../../../schemas/value-provenance.ts";
import type { CalendarSource, CheckResult, RunOutcome, TimePrecision } from "../../../schemas/vocabularies.ts";
import type { ReleaseWatch } from "../due/found-releases.ts";
import type { UpstreamSource } from "../records.ts";
import type { SourceResult } from "../run-summary.ts";

/**
 * A row of the ledger's `events`. Its vocabulary columns hold only what the writers here put in (typed below), so a row
 * read back is typed the same; `reference_period` is a ReferencePeriod as JSON.
 */
export interface StoredEvent {
  id: string;
  release_slug: string;
  title: string;
  scheduled_date: string;
  scheduled_at: string | null;
  time_precision: TimePrecision;
  source_timezone: string;
  reference_period: string | null;
  status: EventStatus;
  withdrawn_at: string | null;
  first_seen_at: string;
  updated_at: string;
}

export interface StoredEventSource {
  source: CalendarSource;
  source_event_id: string;
  event_id: string;
  title: string;
  scheduled_date: string;
  scheduled_at: string | null;
  first_seen_at: string;
  last_seen_at: string;
}

/** A vintage of the ledger; its provenance columns (VINTAGE_PROVENANCE_COLUMNS) are null where recorded before they were kept. */
export interface StoredVintage extends ProvenanceColumns {
  series_slug: string;
  reference_period: string;
  sequence: number;
  value: string | null;
  publication_status: string | null;
  source_updated_at: string | null;
  ingested_at: string;
  run_id: string;
  note: string | null;
  /** JSON of the inputs, for a vintage the service derived. */
  derived_inputs: string | null;
}

/** The latest document that carried a period (see `value_sightings`). */
export interface ValueSighting {
  series_slug: string;
  reference_period: string;
  seen_at: string;
  source_updated_at: string | null;
  document_sha256: string | null;
  run_id: string;
}

export type Store = ReturnType<typeof openStore>;

/** What a finished run's `summary` holds: each source's result and the releases it watched, or why the run failed. */
export type RunRecord = { sources: SourceResult[]; releases?: ReleaseWatch } | { error: string };

const LEDGER_PAGE_CACHE_KIB = 64 * 1024;
/** In pages of 4 KiB: 64 MiB of write-ahead log at most between automatic checkpoints. */
const WAL_CHECKPOINT_PAGES = 16_384;

/** The ledger's data access: synchronous prepared statements, one per question (better-sqlite3 style). */
export function openStore(path: string) {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  // Each document's transaction reads and extends the same few index pages of a ledger of hundreds of megabytes: a
  // page cache of 64 MiB (SQLite's default is 2 MiB) keeps them in memory, and folding the log back every 64 MiB
  // rather than every 4 MiB writes a page touched by many documents once per checkpoint, not once per document or so.
  // With the ledger kept fully synchronous, they are most of what a million-vintage replay saved (docs/performance.md).
  db.pragma(`cache_size = -${LEDGER_PAGE_CACHE_KIB}`);
  db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  db.exec(STORE_DDL);
  addMissingColumns(db, "vintages", VINTAGE_PROVENANCE_COLUMNS);
  addMissingColumns(db, "event_changes", ["document_sha256", "document_fetched_at"]);

  const statements = {
    startRun: db.prepare("INSERT INTO runs (id, started_at, mode, outcome) VALUES (?, ?, ?, 'running')"),
    finishRun: db.prepare("UPDATE runs SET finished_at = ?, outcome = ?, summary = ? WHERE id = ?"),
    closeInterrupted: db.prepare(
      `UPDATE runs SET finished_at = ?, outcome = 'failed', summary = '{"error":"interrupted before it finished"}' WHERE outcome = 'running'`,
    ),
    recordCheck: db.prepare(
      "INSERT OR REPLACE INTO source_checks (run_id, source, checked_at, result, detail) VALUES (?, ?, ?, ?, ?)",
    ),
    latestSuccessfulCheck: db
      .prepare("SELECT max(checked_at) FROM source_checks WHERE source = ? AND result = 'successful'")
      .pluck(),
    recordDocument:
      db.prepare(`INSERT OR IGNORE INTO documents (sha256, run_id, source, url, fetched_at, http_status, etag, last_modified, bytes, archive_path)
      VALUES (@sha256, @runId, @source, @url, @fetchedAt, @httpStatus, @etag, @lastModified, @bytes, @archivePath)`),
    archivedPath: db.prepare("SELECT archive_path FROM documents WHERE sha256 = ? LIMIT 1").pluck(),
    markApplied: db.prepare(
      "INSERT OR IGNORE INTO applied_documents (source, sha256, registry_sha256, run_id, applied_at) VALUES (?, ?, ?, ?, ?)",
    ),
    eventSource: db.prepare("SELECT * FROM event_sources WHERE source = ? AND source_event_id = ?"),
    event: db.prepare("SELECT * FROM events WHERE id = ?"),
    // Two branches, so that each is a seek on its own index (an OR across both would scan the release's events).
    canonicalCandidates: db.prepare(`SELECT * FROM events WHERE rowid IN (
        SELECT rowid FROM events WHERE release_slug = @release AND scheduled_date = @date
        UNION ALL SELECT rowid FROM events WHERE release_slug = @release AND json_extract(reference_period, '$.code') = @period)
      ORDER BY rowid`),
    sourcesOfEvent: db.prepare("SELECT * FROM event_sources WHERE event_id = ?"),
    insertEvent:
      db.prepare(`INSERT INTO events (id, release_slug, title, scheduled_date, scheduled_at, time_precision, source_timezone, reference_period, status, withdrawn_at, first_seen_at, updated_at)
      VALUES (@id, @release_slug, @title, @scheduled_date, @scheduled_at, @time_precision, @source_timezone, @reference_period, @status, @withdrawn_at, @first_seen_at, @updated_at)`),
    updateEvent:
      db.prepare(`UPDATE events SET title = @title, scheduled_date = @scheduled_date, scheduled_at = @scheduled_at, time_precision = @time_precision,
      source_timezone = @source_timezone, reference_period = @reference_period, status = @status, withdrawn_at = @withdrawn_at, updated_at = @updated_at WHERE id = @id`),
    upsertEventSource:
      db.prepare(`INSERT INTO event_sources (source, source_event_id, event_id, title, scheduled_date, scheduled_at, first_seen_at, last_seen_at)
      VALUES (@source, @source_event_id, @event_id, @title, @scheduled_date, @scheduled_at, @first_seen_at, @last_seen_at)
      ON CONFLICT (source, source_event_id) DO UPDATE SET title = excluded.title, scheduled_date = excluded.scheduled_date,
        scheduled_at = excluded.scheduled_at, last_seen_at = excluded.last_seen_at`),
    recordChange:
      db.prepare(`INSERT INTO event_changes (event_id, run_id, changed_at, field, old_value, new_value, document_sha256, document_fetched_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
    sourceRefsInRange: db.prepare(
      "SELECT * FROM event_sources WHERE source = ? AND scheduled_date BETWEEN ? AND ? ORDER BY rowid",
    ),
    addEvidence: db.prepare(
      "INSERT OR IGNORE INTO evidence (event_id, kind, observed_at, released_at, detail, url) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    eventsForPeriod: db.prepare(
      "SELECT * FROM events WHERE release_slug = ? AND json_extract(reference_period, '$.code') = ? ORDER BY rowid",
    ),
    liveEventsScheduledBetween: db.prepare(
      "SELECT * FROM events WHERE release_slug = ? AND status != 'CANCELLED' AND scheduled_date BETWEEN ? AND ?",
    ),
    currentVintage: db.prepare(
      "SELECT * FROM vintages WHERE series_slug = ? AND reference_period = ? ORDER BY sequence DESC LIMIT 1",
    ),
    vintagesOfPeriod: db.prepare(
      "SELECT * FROM vintages WHERE series_slug = ? AND reference_period = ? ORDER BY sequence",
    ),
    currentVintagesOf: db.prepare(`SELECT * FROM vintages v WHERE series_slug = ?
      AND sequence = (SELECT max(sequence) FROM vintages w WHERE w.series_slug = v.series_slug AND w.reference_period = v.reference_period)
      ORDER BY reference_period`),
    appendVintage:
      db.prepare(`INSERT INTO vintages (series_slug, reference_period, sequence, value, publication_status, source_updated_at, ingested_at, run_id,
        source, adapter, transformation, derivation, document_sha256, document_fetched_at, note, derived_inputs)
      VALUES (@series_slug, @reference_period, @sequence, @value, @publication_status, @source_updated_at, @ingested_at, @run_id,
        @source, @adapter, @transformation, @derivation, @document_sha256, @document_fetched_at, @note, @derived_inputs)`),
    recordSighting:
      db.prepare(`INSERT INTO value_sightings (series_slug, reference_period, seen_at, source_updated_at, document_sha256, run_id)
      VALUES (@series_slug, @reference_period, @seen_at, @source_updated_at, @document_sha256, @run_id)
      ON CONFLICT (series_slug, reference_period) DO UPDATE SET seen_at = excluded.seen_at, source_updated_at = excluded.source_updated_at,
        document_sha256 = excluded.document_sha256, run_id = excluded.run_id`),
  };

  return {
    db,
    close: () => {
      // Folds the write-ahead log back into the store and empties it, so a run leaves no WAL behind; on a full disk
      // the checkpoint can fail, and then SQLite replays the log on the next open, so nothing is lost either way.
      try {
        db.pragma("wal_checkpoint(TRUNCATE)");
      } catch {
        // kept for the next open
      }
      db.close();
    },
    transaction: <T>(work: () => T): T => db.transaction(work)(),
    startRun: (id: string, startedAt: string, mode: "fetch" | "archive") =>
      statements.startRun.run(id, startedAt, mode),
    /** Only the holder of the ingestion lock calls this, so any run still marked running was killed. */
    closeInterruptedRuns: (at: string) => statements.closeInterrupted.run(at).changes,
    finishRun: (id: string, finishedAt: string, outcome: Exclude<RunOutcome, "running">, summary: RunRecord) =>
      statements.finishRun.run(finishedAt, outcome, JSON.stringify(summary), id),
    recordCheck: (
      runId: string,
      source: UpstreamSource,
      checkedAt: string,
      result: CheckResult,
      detail: string | null,
    ) => statements.recordCheck.run(runId, source, checkedAt, result, detail),
    /** When the source's latest successful check was, or null when it has never succeeded. */
    latestSuccessfulCheck: (source: string) => statements.latestSuccessfulCheck.get(source) as string | null,
    recordDocument: (document: {
      sha256: string;
      runId: string;
      source: string;
      url: string;
      fetchedAt: string;
      httpStatus: number | null;
      etag: string | null;
      lastModified: string | null;
      bytes: number;
      archivePath: string;
    }) => statements.recordDocument.run(document),
    archivedPath: (sha256: string) => statements.archivedPath.get(sha256) as string | undefined,
    markApplied: (source: string, sha256: string, registrySha256: string, runId: string, at: string) =>
      statements.markApplied.run(source, sha256, registrySha256, runId, at),
    eventSource: (source: string, sourceEventId: string) =>
      statements.eventSource.get(source, sourceEventId) as StoredEventSource | undefined,
    event: (id: string) => statements.event.get(id) as StoredEvent | undefined,
    canonicalCandidates: (releaseSlug: string, scheduledDate: string, periodCode: string | null) =>
      statements.canonicalCandidates.all({
        release: releaseSlug,
        date: scheduledDate,
        period: periodCode,
      }) as StoredEvent[],
    sourcesOfEvent: (eventId: string) => statements.sourcesOfEvent.all(eventId) as StoredEventSource[],
    insertEvent: (event: StoredEvent) => statements.insertEvent.run(event),
    updateEvent: (event: StoredEvent) => statements.updateEvent.run(event),
    upsertEventSource: (reference: StoredEventSource) => statements.upsertEventSource.run(reference),
    /** A change the source made to an event, with the run and the archived document that brought it. */
    recordChange: (
      eventId: string,
      run: ChangeContext,
      field: string,
      oldValue: string | null,
      newValue: string | null,
    ) =>
      statements.recordChange.run(
        eventId,
        run.runId,
        run.at,
        field,
        oldValue,
        newValue,
        run.document?.sha256 ?? null,
        run.document?.fetchedAt ?? null,
      ),
    sourceRefsInRange: (source: string, from: string, to: string) =>
      statements.sourceRefsInRange.all(source, from, to) as StoredEventSource[],
    addEvidence: (
      eventId: string,
      kind: EvidenceKind,
      observedAt: string,
      releasedAt: string | null,
      detail: string,
      url: string | null,
    ) => statements.addEvidence.run(eventId, kind, observedAt, releasedAt, detail, url).changes > 0,
    eventsForPeriod: (releaseSlug: string, periodCode: string) =>
      statements.eventsForPeriod.all(releaseSlug, periodCode) as StoredEvent[],
    /** A release's events not cancelled, scheduled on dates from `from` to `to` (both included). */
    liveEventsScheduledBetween: (releaseSlug: string, from: string, to: string) =>
      statements.liveEventsScheduledBetween.all(releaseSlug, from, to) as StoredEvent[],
    currentVintage: (seriesSlug: string, period: string) =>
      statements.currentVintage.get(seriesSlug, period) as StoredVintage | undefined,
    appendVintage: (vintage: StoredVintage) => statements.appendVintage.run(vintage),
    /** Every vintage of one period, oldest first. */
    vintagesOfPeriod: (seriesSlug: string, period: string) =>
      statements.vintagesOfPeriod.all(seriesSlug, period) as StoredVintage[],
    /** The current vintage of every period of a series (or ledger key), oldest period first. */
    currentVintagesOf: (seriesSlug: string) => statements.currentVintagesOf.all(seriesSlug) as StoredVintage[],
    recordSighting: (sighting: ValueSighting) => statements.recordSighting.run(sighting),
  };
}

/** Who changed an event: the run, when, and the archived document (absent where none is at hand). */
export interface ChangeContext {
  runId: string;
  at: string;
  document?: { sha256: string; fetchedAt: string | null };
}

/** Adds the columns a store written by an earlier version lacks (SQLite has no ADD COLUMN IF NOT EXISTS). */
function addMissingColumns(db: Database.Database, table: string, columns: readonly string[]): void {
  const present = new Set(
    (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map((column) => column.name),
  );
  for (const column of columns) if (!present.has(column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} TEXT`);
}
