import { createHash } from "node:crypto";
import { basename, join } from "node:path";
import { DateTime } from "luxon";
import { DATA_FILES } from "../../schemas/data-files.ts";
import { newRunId } from "../../schemas/ingestion-runs.ts";
import type { BuiltRegistry, Registry } from "../../schemas/registry.ts";
import { type CalendarSource, NEWS_FEEDS, type NewsFeed } from "../../schemas/vocabularies.ts";
import { UpstreamRequestError } from "../../server/upstream/fetch-limited.ts";
import { removeUnfinishedDocuments } from "../abandoned-files.ts";
import { DOCUMENT_FAILURES } from "./adapters/document-failures.ts";
import { appliedFetches } from "./applied-fetches.ts";
import { applyAnnouncements } from "./apply-announcements.ts";
import { applyCalendarSnapshot, type RunContext } from "./apply-calendar.ts";
import { applyObservations, createSeriesIndex } from "./apply-observations.ts";
import { archiveDocument, fetchOrderRecorder, replayPlan } from "./archive.ts";
import { DEFAULT_INGEST_MAX_BYTES, documentCeiling } from "./document-ceilings.ts";
import type { DueRelease } from "./due-releases.ts";
import {
  DocumentRefusedError,
  fetchDocument,
  type PoliteOptions,
  PublisherAskedToWaitError,
} from "./fetch-document.ts";
import { watchedReleases } from "./found-releases.ts";
import { createPeriodLinker } from "./link-periods-by-value.ts";
import { publishedFact, publishIndex } from "./publish-index.ts";
import type { CalendarSnapshot, SourceObservation } from "./records.ts";
import { createNewsReleaseMatcher, createReleaseResolver } from "./release-matching.ts";
import { relinkFromStore } from "./relink.ts";
import {
  broughtChanges,
  type IngestSummary,
  type SourceResult,
  type SourceTally,
  sourceResult,
  totalsOf,
} from "./run-summary.ts";
import { tallySkipped } from "./skipped-summary.ts";
import { keepSourceWait } from "./source-waits.ts";
import { type RequestContext, SOURCES, type SourceDefinition, type UpstreamHosts } from "./sources.ts";
import { openStore, type Store } from "./store.ts";

export type IngestMode =
  | { kind: "fetch"; hosts: UpstreamHosts; blsApiKey: string | null; http: PoliteOptions }
  /** `maxBytes`: the fetch ceiling, applied to replayed documents alike (DEFAULT_INGEST_MAX_BYTES when not given). */
  | { kind: "archive"; dir: string; maxBytes?: number };

export interface IngestOptions {
  dataDir: string;
  /** Published with the run's index, and only with it (publish-index.ts). */
  registry: BuiltRegistry;
  mode: IngestMode;
  /** Limit the run to these source slugs; all when null. */
  only: string[] | null;
  now: () => number;
  progress: (line: string) => void;
  /** The run's id when whoever started the process already named it (the operator route's launcher); else a new one. */
  runId?: string;
  /** The registry whose series the requests ask for (a due run's: only the due releases' series); else `registry`. */
  requestRegistry?: Registry;
  /** Releases due when the run started: the summary and the ledger record which of them it found (found-releases.ts). */
  watch?: readonly DueRelease[];
  /** Publish only if the run brought a value, evidence or period link (a due run, every minute while a release is due). */
  publishOnlyChanges?: boolean;
}

// The summary's shapes live with the code that builds them; callers of runIngestion keep finding them here.
export type { IngestSummary, SourceResult } from "./run-summary.ts";

interface Document {
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
 * One ingestion run: each source's documents are fetched (or replayed), archived by content hash, parsed and
 * applied to the store in their own transactions; a failing source is recorded `incomplete` and does not stop
 * the others. The index is published only at the end, and only if some source succeeded.
 */
export async function runIngestion(options: IngestOptions): Promise<IngestSummary> {
  const started = options.now();
  const store = openStore(join(options.dataDir, DATA_FILES.store));
  const runId = options.runId ?? newRunId(started);
  const iso = (ms: number) => new Date(ms).toISOString();
  store.closeInterruptedRuns(iso(started));
  store.startRun(runId, iso(started), options.mode.kind);
  try {
    removeUnfinishedDocuments(join(options.dataDir, DATA_FILES.archive));
    const sources = SOURCES.filter((source) => options.only === null || options.only.includes(source.slug));
    const lookups = registryLookups(options.registry);
    const results: SourceResult[] = [];
    const line = (position: number, text: string) =>
      options.progress(`[${position + 1}/${sources.length}] ${sources[position]!.slug}: ${text}`);
    const report = (position: number, outcome: SourceResult) => {
      const result = recordedCheck(store, runId, iso(options.now()), outcome);
      line(position, `${result.ok ? "ok" : "INCOMPLETE"} — ${result.detail}`);
      results.push(result);
    };
    const { mode } = options;
    if (mode.kind === "archive") {
      // A replay interleaves the sources as the recorded fetches did, so every source is under way at once.
      for (const position of sources.keys()) line(position, "replaying…");
      for (const [position, outcome] of replaySources(store, sources, { ...options, mode }, runId, lookups).entries()) {
        report(position, outcome);
      }
    } else {
      for (const [position, source] of sources.entries()) {
        line(position, "fetching…");
        report(position, await ingestSource(store, source, { ...options, mode }, runId, lookups));
      }
    }
    const finished = iso(options.now());
    const failed = results.filter((result) => !result.ok).length;
    const outcome = failed === 0 ? "succeeded" : failed < results.length ? "partial" : "failed";
    const unchanged = options.publishOnlyChanges === true && !broughtChanges(results);
    if (unchanged) options.progress("nothing new: the index is left as it is");
    const published = outcome !== "failed" && !unchanged;
    if (published) {
      const relinking = performance.now();
      const relinked = relinkFromStore(store, options.registry, lookups);
      options.progress(
        `links derived again from the store in ${((performance.now() - relinking) / 1000).toFixed(2)} s: ` +
          `${relinked.periods} periods, ${relinked.evidence} value evidence, ${relinked.announcements} announcements`,
      );
      options.progress("publishing the index…");
      const publishing = performance.now();
      await publishIndex(store, options.registry, options.dataDir, {
        publishedAt: finished,
        lastIngestedAt: finished,
        // Never older than what the live index already states: a run killed after publishing, before it was recorded
        // finished, published a success that the ledger's runs no longer show.
        lastSuccessfulIngestionAt:
          [lastEconomicsSuccess(store, results, finished), publishedFact(options.dataDir, "lastSuccessfulIngestionAt")]
            .filter((time): time is string => time !== null)
            .sort()
            .at(-1) ?? null,
      });
      options.progress(`index published in ${((performance.now() - publishing) / 1000).toFixed(2)} s`);
    }
    // Recorded only once its index is in place, so a run read as finished has published what it says. A run that cannot
    // record its end (a full disk) stays "running" in the ledger, as a killed one does, and the next run records it as
    // interrupted; what it did is reported all the same.
    const releases = options.watch ? watchedReleases(store.db, options.watch, runId, options.progress) : undefined;
    try {
      store.finishRun(runId, finished, outcome, { sources: results, ...(releases ? { releases } : {}) });
    } catch (error) {
      options.progress(`the end of the run could not be recorded: ${(error as Error).message}`);
    }
    return {
      runId,
      outcome,
      published,
      durationMs: options.now() - started,
      sources: results,
      totals: totalsOf(results),
      ...(releases ? { releases } : {}),
    };
  } catch (error) {
    try {
      store.finishRun(runId, iso(options.now()), "failed", { error: (error as Error).message });
    } catch {
      // The run's own failure is the one to report.
    }
    throw error;
  } finally {
    store.close();
  }
}

/**
 * Records the source's check. When even that fails (a full disk), the source is reported failed with the reason and
 * the run goes on to the next source: every source gets its attempt and its line in the summary.
 */
function recordedCheck(store: Store, runId: string, at: string, result: SourceResult): SourceResult {
  try {
    store.recordCheck(
      runId,
      result.source,
      at,
      result.ok ? "successful" : "incomplete",
      result.ok ? null : result.detail,
    );
    return result;
  } catch (error) {
    const failure = `its check could not be recorded: ${(error as Error).message}`;
    return { ...result, ok: false, detail: `${result.detail}; ${failure}`, failures: [...result.failures, failure] };
  }
}

/**
 * The registry's matchers and indexes, compiled once per run, and a hash of its content (not of its build time):
 * a document applied under another registry may match differently, so it counts as not yet applied.
 */
function registryLookups(registry: Registry) {
  const content = JSON.stringify({ families: registry.families, series: registry.series, releases: registry.releases });
  return {
    resolveRelease: createReleaseResolver(registry),
    seriesIndex: createSeriesIndex(registry),
    matchNewsReleases: createNewsReleaseMatcher(registry),
    registrySha256: createHash("sha256").update(content).digest("hex"),
    fetchOrder: fetchOrderRecorder(),
    linkPeriods: createPeriodLinker(registry),
  };
}

type Lookups = ReturnType<typeof registryLookups>;

/**
 * A live run: each source's documents fetched, then applied in request order; a failure ends the source's turn. Only
 * an observation API's document the publisher refuses (a wrong series key's 404) fails alone: each such document
 * stands for one series or dataset, so the others are still fetched and applied, and the source is reported incomplete.
 */
async function ingestSource(
  store: Store,
  source: SourceDefinition,
  options: IngestOptions & { mode: { kind: "fetch" } },
  runId: string,
  lookups: Lookups,
): Promise<SourceResult> {
  const tally: SourceTally = { documents: 0, counts: {}, skipped: [], skippedSeen: new Set(), failures: [] };
  try {
    const received = await fetchedDocuments(
      source,
      options,
      source.kind === "observations" ? (message) => tally.failures.push(message) : null,
    );
    for (const document of received) applyDocument(store, source, document, options, runId, lookups, tally);
  } catch (error) {
    tally.failures.push((error as Error).message);
    if (error instanceof PublisherAskedToWaitError) {
      const unrecorded = keepSourceWait(store.db, source.slug, error.waitMs, options.now(), runId);
      if (unrecorded) tally.failures.push(unrecorded);
    }
  }
  return sourceResult(source, tally);
}

/**
 * A replay: every document of the folder in the order its archive recorded the fetches (`replayPlan`), across sources,
 * as the runs that fetched them applied them. A document that cannot be read fails its source and the replay goes on,
 * since the runs that followed it applied what came after.
 */
function replaySources(
  store: Store,
  sources: SourceDefinition[],
  options: IngestOptions & { mode: { kind: "archive" } },
  runId: string,
  lookups: Lookups,
): SourceResult[] {
  const tallies = new Map(
    sources.map((source): [string, SourceTally] => [
      source.slug,
      { documents: 0, counts: {}, skipped: [], skippedSeen: new Set(), failures: [] },
    ]),
  );
  const bySlug = new Map(sources.map((source) => [source.slug as string, source]));
  const maxBytes = options.mode.maxBytes ?? DEFAULT_INGEST_MAX_BYTES;
  const ceilingOf = (slug: string) => documentCeiling(bySlug.get(slug)!, maxBytes);
  for (const planned of replayPlan(options.mode.dir, [...bySlug.keys()], (slug) => ceilingOf(slug).bytes)) {
    const source = bySlug.get(planned.source)!;
    const tally = tallies.get(source.slug)!;
    if (planned.body === null) {
      const { bytes, format } = ceilingOf(source.slug);
      tally.failures.push(`${planned.name}: ${DOCUMENT_FAILURES.overCeiling(planned.bytes, bytes, format)}`);
      continue;
    }
    const document: Document = {
      name: planned.name,
      url: planned.recorded?.url ?? `file:${planned.name}`,
      body: planned.body,
      status: null,
      etag: null,
      lastModified: null,
      fetchedAt: planned.recorded?.fetchedAt ?? planned.stampedAt,
      retrievedAt: planned.recorded?.retrievedAt ?? planned.statedAt ?? null,
      fetchTimeKnown: planned.recorded
        ? !planned.recorded.fetchTimeUnknown
        : planned.statedAt !== undefined
          ? planned.statedAt !== null
          : planned.stampedAt !== null,
      runId: planned.recorded?.runId ?? null,
    };
    try {
      applyDocument(store, source, document, options, runId, lookups, tally);
    } catch (error) {
      tally.failures.push(`${planned.name}: ${(error as Error).message}`);
    }
  }
  return sources.map((source) => sourceResult(source, tallies.get(source.slug)!));
}

/**
 * Archives one document, records its fetch, and applies it to the store in its own transaction. What it brings is
 * dated by when the publisher served it (a live fetch: now; a replay: the fetch record or the recording's sidecar), so
 * a replay at any time records what the runs it replays recorded; values are ingested when the run (or the recorded
 * run) observed the document. A document whose fetch time nothing records keeps a null `fetchedAt` and is dated by the
 * run that reads it: the replay's clock is never taken for the publisher's.
 */
function applyDocument(
  store: Store,
  source: SourceDefinition,
  document: Document,
  options: IngestOptions,
  runId: string,
  lookups: Lookups,
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
  const fetches = appliedFetches(store.db);
  if (options.mode.kind === "archive" && source.kind !== "news") {
    const known =
      document.fetchedAt !== null
        ? fetches.wasApplied(source.slug, archived.sha256, observedAt, lookups.registrySha256)
        : store.wasApplied(source.slug, archived.sha256, lookups.registrySha256);
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
  const applyCalendar = (snapshot: CalendarSnapshot) => {
    tally.skipped = tallySkipped(tally.skipped, snapshot.skipped, tally.skippedSeen);
    return applyCalendarSnapshot(
      store,
      lookups.resolveRelease,
      source.slug as CalendarSource,
      snapshot.events,
      run,
      snapshot.skipped,
    );
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
        ? applyCalendar(source.parse(document.body, retrievedAt ?? at))
        : source.kind === "observations"
          ? applyValues(source.parse(document.body))
          : applyAnnouncements(
              store,
              lookups.matchNewsReleases,
              source.slug as NewsFeed,
              source.parse(document.body),
              run,
            );
    store.markApplied(source.slug, archived.sha256, lookups.registrySha256, runId, at);
    if (source.kind !== "news") fetches.record(source.slug, archived.sha256, observedAt, lookups.registrySha256, runId);
    return changes;
  });
  for (const [name, value] of Object.entries(applied)) tally.counts[name] = (tally.counts[name] ?? 0) + value;
}

/** The source's documents; with `refusedAlone`, a document the publisher refuses is reported there and the rest fetched. */
async function fetchedDocuments(
  source: SourceDefinition,
  options: IngestOptions & { mode: { kind: "fetch" } },
  refusedAlone: ((message: string) => void) | null,
): Promise<Document[]> {
  const { mode } = options;
  const context: RequestContext = {
    hosts: mode.hosts,
    registry: options.requestRegistry ?? options.registry,
    now: DateTime.fromMillis(options.now(), { zone: "utc" }),
    blsApiKey: mode.blsApiKey,
  };
  const documents: Document[] = [];
  for (const request of source.requests(context)) {
    let fetched: Awaited<ReturnType<typeof fetchDocument>>;
    const ceiling = documentCeiling(source, mode.http.maxBytes);
    try {
      fetched = await fetchDocument(request, { ...mode.http, maxBytes: ceiling.bytes });
    } catch (error) {
      if (ceiling.ofFormat && error instanceof UpstreamRequestError && error.failure === "too-large")
        throw new UpstreamRequestError("too-large", `${error.message} for ${ceiling.format}`);
      if (!(refusedAlone && error instanceof DocumentRefusedError)) throw error;
      refusedAlone(error.message);
      continue;
    }
    documents.push({
      name: "",
      url: request.url,
      body: fetched.body,
      status: fetched.status,
      etag: fetched.etag,
      lastModified: fetched.lastModified,
      fetchedAt: null,
      retrievedAt: null,
      fetchTimeKnown: true,
      runId: null,
    });
  }
  return documents;
}

/**
 * The economics freshness fact: the end of this run when every economics source (calendars and values) succeeded in it;
 * otherwise the moment since which each has succeeded, the oldest of their latest successful checks, so that a run of
 * some sources (`--source`, `--due`) never makes the others look fresh, and runs of one source at a time count as
 * one run of all would. Announcement feeds have their own checks: a failing news feed does not make economics stale.
 */
function lastEconomicsSuccess(store: Store, results: SourceResult[], finished: string): string | null {
  if (ECONOMICS_SOURCES.every((slug) => results.some((result) => result.source === slug && result.ok))) return finished;
  const latestSuccess = store.db
    .prepare("SELECT max(checked_at) FROM source_checks WHERE source = ? AND result = 'successful'")
    .pluck();
  const times = ECONOMICS_SOURCES.map((slug) => latestSuccess.get(slug) as string | null);
  return times.some((time) => time === null) ? null : (times.sort()[0] ?? null);
}

const isNewsFeed = (source: string) => (NEWS_FEEDS as readonly string[]).includes(source);
const ECONOMICS_SOURCES = SOURCES.map((source) => source.slug).filter((slug) => !isNewsFeed(slug));
