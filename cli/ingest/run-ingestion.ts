import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import { DateTime } from "luxon";
import { DATA_FILES } from "../../schemas/data-files.ts";
import type { Registry } from "../../schemas/registry.ts";
import { NEWS_FEEDS, type CalendarSource, type NewsFeed, type RunOutcome } from "../../schemas/vocabularies.ts";
import { applyAnnouncements } from "./apply-announcements.ts";
import { applyCalendarSnapshot, type RunContext } from "./apply-calendar.ts";
import { applyObservations, createSeriesIndex } from "./apply-observations.ts";
import { archiveDocument, replayDocuments } from "./archive.ts";
import { fetchDocument, type PoliteOptions } from "./fetch-document.ts";
import { publishedFact, publishIndex } from "./publish-index.ts";
import { createNewsReleaseMatcher, createReleaseMatcher } from "./release-matching.ts";
import { SOURCES, type RequestContext, type SourceDefinition, type UpstreamHosts } from "./sources.ts";
import { openStore, type Store } from "./store.ts";

export type IngestMode =
  | { kind: "fetch"; hosts: UpstreamHosts; blsApiKey: string | null; http: PoliteOptions }
  | { kind: "archive"; dir: string };

export interface IngestOptions {
  dataDir: string;
  registry: Registry;
  mode: IngestMode;
  /** Limit the run to these source slugs; all when null. */
  only: string[] | null;
  now: () => number;
  progress: (line: string) => void;
}

export interface SourceResult {
  source: string;
  ok: boolean;
  documents: number;
  detail: string;
  counts: Record<string, number>;
}

export interface IngestSummary {
  runId: string;
  outcome: Exclude<RunOutcome, "running">;
  published: boolean;
  durationMs: number;
  sources: SourceResult[];
  totals: { documents: number; eventsNew: number; eventsChanged: number; eventsCancelled: number; vintagesAppended: number };
}

interface Document {
  name: string;
  url: string;
  body: Buffer;
  status: number | null;
  etag: string | null;
  lastModified: string | null;
}

/**
 * One ingestion run: each source's documents are fetched (or replayed), archived by content hash, parsed and
 * applied to the store in their own transactions; a failing source is recorded `incomplete` and does not stop
 * the others. The index is published only at the end, and only if some source succeeded.
 */
export async function runIngestion(options: IngestOptions): Promise<IngestSummary> {
  const started = options.now();
  const store = openStore(join(options.dataDir, DATA_FILES.store));
  const runId = `run_${DateTime.fromMillis(started, { zone: "utc" }).toFormat("yyyyMMdd'T'HHmmss")}_${randomBytes(3).toString("hex")}`;
  const iso = (ms: number) => new Date(ms).toISOString();
  store.closeInterruptedRuns(iso(started));
  store.startRun(runId, iso(started), options.mode.kind);
  try {
    const sources = SOURCES.filter((source) => options.only === null || options.only.includes(source.slug));
    const lookups = registryLookups(options.registry);
    const results: SourceResult[] = [];
    for (const [position, source] of sources.entries()) {
      options.progress(`[${position + 1}/${sources.length}] ${source.slug}: ${options.mode.kind === "fetch" ? "fetching" : "replaying"}…`);
      const result = recordedCheck(store, runId, iso(options.now()), await ingestSource(store, source, options, runId, lookups));
      options.progress(`[${position + 1}/${sources.length}] ${source.slug}: ${result.ok ? "ok" : "INCOMPLETE"} — ${result.detail}`);
      results.push(result);
    }
    const finished = iso(options.now());
    const failed = results.filter((result) => !result.ok).length;
    const outcome = failed === 0 ? "succeeded" : failed < results.length ? "partial" : "failed";
    const published = outcome !== "failed";
    if (published) {
      options.progress("publishing the index…");
      publishIndex(store, options.registry, options.dataDir, {
        publishedAt: finished, lastIngestedAt: finished,
        // Never older than what the live index already states: a run killed after publishing, before it was recorded
        // finished, published a success that the ledger's runs no longer show.
        lastSuccessfulIngestionAt: [lastEconomicsSuccess(store, results, finished), publishedFact(options.dataDir, "lastSuccessfulIngestionAt")]
          .filter((time): time is string => time !== null).sort().at(-1) ?? null,
      });
    }
    // Recorded only once its index is in place, so a run read as finished has published what it says.
    store.finishRun(runId, finished, outcome, { sources: results });
    return { runId, outcome, published, durationMs: options.now() - started, sources: results, totals: totalsOf(results) };
  } catch (error) {
    store.finishRun(runId, iso(options.now()), "failed", { error: (error as Error).message });
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
    store.recordCheck(runId, result.source, at, result.ok ? "successful" : "incomplete", result.ok ? null : result.detail);
    return result;
  } catch (error) {
    return { ...result, ok: false, detail: `${result.detail}; its check could not be recorded: ${(error as Error).message}` };
  }
}

/**
 * The registry's matchers and indexes, compiled once per run, and a hash of its content (not of its build time):
 * a document applied under another registry may match differently, so it counts as not yet applied.
 */
function registryLookups(registry: Registry) {
  const content = JSON.stringify({ families: registry.families, series: registry.series, releases: registry.releases });
  return {
    matchRelease: createReleaseMatcher(registry), seriesIndex: createSeriesIndex(registry), matchNewsReleases: createNewsReleaseMatcher(registry),
    registrySha256: createHash("sha256").update(content).digest("hex"),
  };
}

async function ingestSource(store: Store, source: SourceDefinition, options: IngestOptions, runId: string, lookups: ReturnType<typeof registryLookups>): Promise<SourceResult> {
  const counts: Record<string, number> = {};
  let documents = 0;
  try {
    const received = await documentsOf(source, options);
    if (received.length === 0) return { source: source.slug, ok: false, documents, detail: "no documents to read", counts };
    for (const document of received) {
      const at = new Date(options.now()).toISOString();
      const archived = archiveDocument(join(options.dataDir, DATA_FILES.archive), source.slug, document.body, at, source.extension, store.archivedPath);
      store.recordDocument({ sha256: archived.sha256, runId, source: source.slug, url: document.url, fetchedAt: at, httpStatus: document.status, etag: document.etag, lastModified: document.lastModified, bytes: archived.bytes, archivePath: archived.path });
      documents++;
      // A replay skips calendar and value documents the ledger already holds (re-applying an older snapshot after a
      // newer one would undo its revisions). Live fetches are always applied, so that "last seen" stays true, and
      // announcement feeds too: they are small, and their per-run counts are how operators judge a feed's health.
      if (options.mode.kind === "archive" && source.kind !== "news" && store.wasApplied(source.slug, archived.sha256, lookups.registrySha256)) {
        counts.known = (counts.known ?? 0) + 1;
        continue;
      }
      const run: RunContext = { runId, at };
      const applied = store.transaction(() => {
        const changes = source.kind === "calendar"
          ? applyCalendarSnapshot(store, lookups.matchRelease, source.slug as CalendarSource, source.parse(document.body, retrievedAtOf(document.name, at)).events, run)
          : source.kind === "observations"
            ? applyObservations(store, lookups.seriesIndex, source.parse(document.body), run)
            : applyAnnouncements(store, lookups.matchNewsReleases, source.slug as NewsFeed, source.parse(document.body), run);
        store.markApplied(source.slug, archived.sha256, lookups.registrySha256, runId, at);
        return changes;
      });
      for (const [name, value] of Object.entries(applied)) counts[name] = (counts[name] ?? 0) + value;
    }
    return { source: source.slug, ok: true, documents, detail: describe(documents, counts), counts };
  } catch (error) {
    return { source: source.slug, ok: false, documents, detail: (error as Error).message, counts };
  }
}

async function documentsOf(source: SourceDefinition, options: IngestOptions): Promise<Document[]> {
  const mode = options.mode;
  if (mode.kind === "archive") {
    return replayDocuments(mode.dir, source.slug).map((file) => ({ name: file.name, url: `file:${file.name}`, body: file.body, status: null, etag: null, lastModified: null }));
  }
  const context: RequestContext = { hosts: mode.hosts, registry: options.registry, now: DateTime.fromMillis(options.now(), { zone: "utc" }), blsApiKey: mode.blsApiKey };
  const documents: Document[] = [];
  for (const request of source.requests(context)) {
    const fetched = await fetchDocument(request, mode.http);
    documents.push({ name: "", url: request.url, body: fetched.body, status: fetched.status, etag: fetched.etag, lastModified: fetched.lastModified });
  }
  return documents;
}

/**
 * The economics freshness fact: the end of the latest run in which every economics source it ran (calendars and
 * values) succeeded. Announcement feeds have their own checks, so a failing news feed does not make economics stale.
 */
function lastEconomicsSuccess(store: Store, results: SourceResult[], finished: string): string | null {
  const economicsOk = (sources: SourceResult[]) => {
    const economics = sources.filter((source) => !isNewsFeed(source.source));
    return economics.length > 0 && economics.every((source) => source.ok);
  };
  if (economicsOk(results)) return finished;
  const earlier = store.db.prepare("SELECT finished_at, summary FROM runs WHERE outcome IN ('succeeded', 'partial') ORDER BY finished_at DESC").all() as { finished_at: string; summary: string }[];
  return earlier.find((run) => economicsOk((JSON.parse(run.summary) as { sources?: SourceResult[] }).sources ?? []))?.finished_at ?? null;
}

const isNewsFeed = (source: string) => (NEWS_FEEDS as readonly string[]).includes(source);

/** When a replayed document was retrieved, from its name (an archive stamp or a dated sample); else the run time. */
function retrievedAtOf(name: string, fallback: string): string {
  const stamp = /^(\d{8}T\d{6}Z)-/.exec(name) ?? /(\d{4}-\d{2}-\d{2})/.exec(name);
  if (!stamp) return fallback;
  const parsed = stamp[1]!.includes("T") ? DateTime.fromFormat(stamp[1]!, "yyyyMMdd'T'HHmmss'Z'", { zone: "utc" }) : DateTime.fromISO(stamp[1]!, { zone: "utc" });
  return parsed.isValid ? parsed.toISO()! : fallback;
}

function describe(documents: number, counts: Record<string, number>): string {
  const parts = Object.entries(counts).filter(([, value]) => value > 0).map(([name, value]) => `${value} ${name}`);
  return `${documents} document${documents === 1 ? "" : "s"}${parts.length ? `, ${parts.join(", ")}` : ""}`;
}

function totalsOf(results: SourceResult[]): IngestSummary["totals"] {
  const sum = (name: string) => results.reduce((total, result) => total + (result.counts[name] ?? 0), 0);
  return {
    documents: results.reduce((total, result) => total + result.documents, 0),
    eventsNew: sum("created"),
    eventsChanged: sum("changed") + sum("attached"),
    eventsCancelled: sum("cancelled"),
    vintagesAppended: sum("appended"),
  };
}
