// One document of a run, live or replayed: archived, its fetch recorded, applied to the store.
import { basename, join } from "node:path";
import { DATA_FILES } from "../../schemas/data-files.ts";
import { applyAnnouncements } from "./apply-announcements.ts";
import { applyCalendarSnapshot, type RunContext } from "./apply-calendar.ts";
import { applyObservations } from "./apply-observations.ts";
import { archiveDocument } from "./archive.ts";
import type { IngestOptions } from "./ingest-options.ts";
import type { Store } from "./ledger/store.ts";
import type { CalendarSnapshot, SourceObservation } from "./records.ts";
import type { RunLookups } from "./run-lookups.ts";
import type { SourceTally } from "./run-summary.ts";
import { tallySkipped } from "./skipped-summary.ts";
import type { CalendarSourceDefinition, SourceDefinition } from "./sources.ts";

export interface Document {
  name: string;
  url: string;
  body: Buffer;
  status: number | null;
  etag: string | null;
  lastModified: string | null;
  /**
   * When the ledger saw the document: a replayed fetch's time on record (the archive's fetch record, a sample's sidecar,
   * an older archive's file name); null for now (a live fetch, or a replayed document whose fetch time is not known).
   */
  fetchedAt: string | null;
  /** When the publisher served it, where that differs from `fetchedAt` (a replayed fetch of a dated sample); else null. */
  retrievedAt: string | null;
  /** False for a replayed document whose fetch time nothing records (an old recording): its provenance says null. */
  fetchTimeKnown: boolean;
  /** The run that fetched a replayed document, as recorded. */
  runId: string | null;
}

/**
 * Archives one document, records its fetch, and applies it to the store in its own transaction. What it brings is
 * dated by when the publisher served it (a live fetch: now; a replay: the fetch record or the recording's sidecar), so
 * a replay at any time records what the runs it replays recorded; values are ingested when the run (or the recorded
 * run) observed the document. A document whose fetch time nothing records keeps a null `fetchedAt` and is dated by the
 * run that reads it: the replay's clock is never taken for the publisher's.
 */
export function applyDocument(
  store: Store,
  source: SourceDefinition,
  document: Document,
  options: IngestOptions,
  runId: string,
  lookups: RunLookups,
  tally: SourceTally,
): void {
  // Three times: when the run observed the document (now, or a replayed fetch's run as recorded: its ingestion time),
  // when the publisher served it (null when nothing records that), and the ledger's time for what it brings (`at`: the
  // publisher's time where known, so that a replay at any time records the same, else the observation).
  const observedAt = document.fetchedAt ?? new Date(options.now()).toISOString();
  const retrievedAt = document.fetchTimeKnown ? (document.retrievedAt ?? observedAt) : null;
  const at = retrievedAt ?? observedAt;
  const archiveDir = join(options.dataDir, DATA_FILES.archive);
  const archived = archiveDocument(
    archiveDir,
    source.slug,
    document.body,
    observedAt,
    source.extension,
    store.archivedPath,
  );
  store.recordDocument({
    sha256: archived.sha256,
    runId,
    source: source.slug,
    url: document.url,
    fetchedAt: observedAt,
    httpStatus: document.status,
    etag: document.etag,
    lastModified: document.lastModified,
    bytes: archived.bytes,
    archivePath: archived.path,
  });
  lookups.fetchOrder.record(archiveDir, {
    source: source.slug,
    file: basename(archived.path),
    sha256: archived.sha256,
    fetchedAt: observedAt,
    retrievedAt: retrievedAt === observedAt ? null : retrievedAt,
    ...(retrievedAt === null ? { fetchTimeUnknown: true } : {}),
    url: document.url,
    runId: document.runId ?? runId,
  });
  tally.documents++;
  // A replay skips calendar and value documents the ledger already applied (re-applying an older snapshot after a
  // newer one would undo its revisions): by fetch where the archive recorded it, else by content. Live fetches are
  // always applied, so that "last seen" stays true, and announcement feeds too: they are small, and their per-run
  // counts are how operators judge a feed's health.
  if (options.mode.kind === "archive" && source.kind !== "news") {
    const known =
      document.fetchedAt !== null
        ? lookups.appliedFetches.wasApplied(source.slug, archived.sha256, observedAt, lookups.registrySha256)
        : lookups.appliedFetches.contentApplied(source.slug, archived.sha256, lookups.registrySha256);
    if (known) {
      tally.counts.known = (tally.counts.known ?? 0) + 1;
      return;
    }
  }
  // What a replayed fetch brings is recorded as that fetch's run brought it, so a replay serves the same run ids.
  const run: RunContext = {
    runId: document.runId ?? runId,
    at,
    ...(observedAt !== at ? { ingestedAt: observedAt } : {}),
    document: { sha256: archived.sha256, fetchedAt: retrievedAt },
  };
  const applyCalendar = (calendar: CalendarSourceDefinition, snapshot: CalendarSnapshot) => {
    tally.skipped = tallySkipped(tally.skipped, snapshot.skipped, tally.skippedSeen);
    return applyCalendarSnapshot(store, lookups.resolveRelease, calendar.slug, snapshot.events, run, snapshot.skipped);
  };
  // Values, and the newest periods they show, which link events whose calendar states none at the end of the run
  // (relink.ts). A document that cannot be placed in time confirms no release.
  const applyValues = (observations: SourceObservation[]) => {
    if (retrievedAt !== null) lookups.linkPeriods.keep(store, observations, retrievedAt, run);
    return applyObservations(store, lookups.seriesIndex, observations, run, {
      sha256: archived.sha256,
      fetchedAt: retrievedAt,
    });
  };
  const applied = store.transaction(() => {
    const changes =
      source.kind === "calendar"
        ? applyCalendar(source, source.parse(document.body, retrievedAt ?? at))
        : source.kind === "observations"
          ? applyValues(source.parse(document.body))
          : applyAnnouncements(store, lookups.matchNewsReleases, source.slug, source.parse(document.body), run);
    store.markApplied(source.slug, archived.sha256, lookups.registrySha256, runId, at);
    if (source.kind !== "news")
      lookups.appliedFetches.record(source.slug, archived.sha256, observedAt, lookups.registrySha256, runId);
    return changes;
  });
  for (const [name, value] of Object.entries(applied)) tally.counts[name] = (tally.counts[name] ?? 0) + value;
}
