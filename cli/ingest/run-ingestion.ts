import { join } from "node:path";
import { DATA_FILES } from "../../schemas/data-files.ts";
import { newRunId } from "../../schemas/ingestion-runs.ts";
import { removeUnfinishedDocuments } from "../abandoned-files.ts";
import { watchedReleases } from "./due/found-releases.ts";
import { republishSourceChecks } from "./index/publish-checks.ts";
import { publishedFact, publishIndex } from "./index/publish-index.ts";
import type { IngestOptions } from "./ingest-options.ts";
import { openStore, type Store } from "./ledger/store.ts";
import { relinkFromStore } from "./relink.ts";
import { runLookups } from "./run-lookups.ts";
import { broughtChanges, type IngestSummary, type SourceResult, totalsOf } from "./run-summary.ts";
import { ingestSource, replaySources } from "./source-documents.ts";
import { SOURCES } from "./sources.ts";

export type { IngestMode, IngestOptions } from "./ingest-options.ts";
// The summary's shapes live with the code that builds them; callers of runIngestion keep finding them here.
export type { IngestSummary, SourceResult } from "./run-summary.ts";

/**
 * One ingestion run: each source's documents are fetched (or replayed), archived by content hash, parsed and
 * applied to the store in their own transactions; a failing source is recorded `incomplete` and does not stop
 * the others. The index is rebuilt and published only at the end, and only if some source succeeded (and, for a due
 * run, brought something new); a run that rebuilds none publishes the live index again with its data as it was and
 * the run's checks when a source's latest check turned (publish-checks.ts).
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
    const lookups = runLookups(options.registry, store.db);
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
    if (unchanged) options.progress("nothing new: the index is not rebuilt");
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
    // A run that rebuilt no index still tells answers when a source's latest check turned (publish-checks.ts).
    const checksPublished = !published && publishChecks(store, options, finished);
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
      checksPublished,
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
 * A failed run's checks, published with the live index's data as it was (publish-checks.ts); false when nothing was
 * published. A failure to publish them (a full disk) is reported and leaves the live index as it was: the run has
 * failed already, and its checks are in the ledger for the next run to publish.
 */
function publishChecks(store: Store, options: IngestOptions, finished: string): boolean {
  try {
    const done = republishSourceChecks(store, options.dataDir, finished);
    options.progress(
      done === "published"
        ? "source checks published, with the index's data as it was"
        : done === "unchanged"
          ? "the index already states these source checks: left as it is"
          : "no index published yet to state the source checks in",
    );
    return done === "published";
  } catch (error) {
    options.progress(
      `the source checks could not be published (the index stays as it was): ${(error as Error).message}`,
    );
    return false;
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
 * The economics freshness fact: the end of this run when every economics source (calendars and values) succeeded in it;
 * otherwise the moment since which each has succeeded, the oldest of their latest successful checks, so that a run of
 * some sources (`--source`, `--due`) never makes the others look fresh, and runs of one source at a time count as
 * one run of all would. Announcement feeds have their own checks: a failing news feed does not make economics stale.
 */
function lastEconomicsSuccess(store: Store, results: SourceResult[], finished: string): string | null {
  if (ECONOMICS_SOURCES.every((slug) => results.some((result) => result.source === slug && result.ok))) return finished;
  const times = ECONOMICS_SOURCES.map((slug) => store.latestSuccessfulCheck(slug));
  return times.some((time) => time === null) ? null : (times.sort()[0] ?? null);
}

const ECONOMICS_SOURCES = SOURCES.filter((source) => source.kind !== "news").map((source) => source.slug);
