import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";
import { applyCalendarSnapshot } from "../../cli/ingest/apply-calendar.ts";
import { applyObservations, createSeriesIndex } from "../../cli/ingest/apply-observations.ts";
import { openStore } from "../../cli/ingest/ledger/store.ts";
import { createReleaseResolver } from "../../cli/ingest/release-matching.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { DATA_FILES } from "../../schemas/data-files.ts";
import type { CalendarSource } from "../../schemas/vocabularies.ts";
import { publishIndex, runIngestion } from "./compiled-ingestion.ts";
import { EDGE_EVENTS, EDGE_SPEC, longTitleSpec } from "./synthetic-economics-corpora.ts";
import { type EventSpec, type SyntheticSpec, sourceEvent } from "./synthetic-index-spec.ts";

/**
 * Data directories holding a REAL published index, built by the real ingestion pipeline:
 * the bundled sample archive replayed in archive mode, or synthetic source records applied
 * through the same store, matching, vintage and publishing code the CLI runs.
 */

const SAMPLE_ARCHIVE_DIR = fileURLToPath(new URL("../../data/samples/", import.meta.url));

const createdDirs: string[] = [];

/**
 * Removes the data directories this module built for the calling test file. Call it from the file's top-level
 * `afterAll` (services copy the directory they are seeded with, so it is not needed after start-up). The corpora built
 * once (the sample archive's, the edge-case and long-title ones) stay for the other files of the worker process.
 */
export function removeEconomicsDataDirs(): void {
  for (const dir of createdDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  createdDirs.push(dir);
  return dir;
}

/**
 * A directory for a corpus built once per worker process: the test files of a worker share its modules (isolate: false
 * in vitest.config.ts), and with them this module's cache. It is in the run's directory, removed when the run ends
 * (run-dir.ts). Nothing writes to a corpus once built: a service copies the directory it is seeded with.
 */
function keptDir(prefix: string): string {
  return mkdtempSync(join(inject("runDir"), prefix));
}

/** Built once and kept, unless building fails: the next file tries again rather than inherit the failure. */
function once(build: () => Promise<string>, forget: () => void): Promise<string> {
  return build().catch((error: unknown) => {
    forget();
    throw error;
  });
}

// ---------------------------------------------------------------------------------------------
// (a) The real sample archive
// ---------------------------------------------------------------------------------------------

/** The fixed clock of the sample ingestion run: every run time, check time and `ingestedAt` is this instant. */
export const SAMPLE_INGESTED_AT = "2026-11-21T06:00:00.000Z";

let sampleDir: Promise<string> | null = null;

/** `data/samples` replayed by `runIngestion` in archive mode into a temp dir (built once per worker process). */
export function sampleDataDir(): Promise<string> {
  sampleDir ??= once(
    async () => {
      const dir = keptDir("economics-sample-");
      const now = Date.parse(SAMPLE_INGESTED_AT);
      const summary = await runIngestion({
        dataDir: dir,
        registry: readRegistrySources(new Date(now)),
        mode: { kind: "archive", dir: SAMPLE_ARCHIVE_DIR },
        only: null,
        now: () => now,
        progress: () => {},
      });
      if (summary.outcome !== "succeeded" || !summary.published) {
        throw new Error(`sample ingestion did not succeed: ${JSON.stringify(summary.sources)}`);
      }
      return dir;
    },
    () => {
      sampleDir = null;
    },
  );
  return sampleDir;
}

// ---------------------------------------------------------------------------------------------
// (b) Synthetic indexes
// ---------------------------------------------------------------------------------------------

/**
 * Opens a real store, applies each run's calendar snapshots and observations through the real
 * apply functions, records run outcomes and source checks, and publishes the index with the real
 * registry (data/registry). Returns the data directory.
 */
export async function syntheticDataDir(
  spec: SyntheticSpec,
  dir: string = tempDir("economics-synthetic-"),
): Promise<string> {
  const lastRun = spec.runs.at(-1);
  const registry = readRegistrySources(lastRun ? new Date(lastRun.at) : new Date(0));
  const resolve = createReleaseResolver(registry);
  const match = (source: CalendarSource, title: string) => {
    const own = resolve(source, title);
    const alias = spec.aliases?.[source];
    return own.curated || !alias ? own : resolve(alias, title);
  };
  const seriesIndex = createSeriesIndex(registry);
  const store = openStore(join(dir, DATA_FILES.store));
  try {
    let lastSuccess: string | null = null;
    for (const [position, run] of spec.runs.entries()) {
      const runId = `run_synthetic_${position}`;
      const context = { runId, at: run.at };
      store.startRun(runId, run.at, "archive");
      for (const [source, events] of Object.entries(run.calendars ?? {}) as [CalendarSource, EventSpec[]][]) {
        const counts = applyCalendarSnapshot(store, match, source, events.map(sourceEvent), context);
        if (counts.uncurated > 0)
          throw new Error(`synthetic ${source} titles matched no release of the registry (${counts.uncurated})`);
        store.recordCheck(runId, source, run.at, "successful", null);
      }
      if (run.observations && run.observations.length > 0) {
        const counts = applyObservations(store, seriesIndex, run.observations, context, null);
        if (counts.unregistered > 0)
          throw new Error(`synthetic observations of unregistered series (${counts.unregistered})`);
        for (const api of new Set(run.observations.map((item) => item.api)))
          store.recordCheck(runId, api, run.at, "successful", null);
      }
      for (const source of run.incomplete ?? [])
        store.recordCheck(runId, source, run.at, "incomplete", "synthetic failure");
      const outcome = (run.incomplete ?? []).length > 0 ? "partial" : "succeeded";
      store.finishRun(runId, run.at, outcome, { sources: [] });
      if (outcome === "succeeded") lastSuccess = run.at;
    }
    const at = lastRun?.at ?? null;
    await publishIndex(store, registry, dir, {
      publishedAt: at,
      lastIngestedAt: at,
      lastSuccessfulIngestionAt: lastSuccess,
      ...spec.facts,
    });
  } finally {
    store.close();
  }
  return dir;
}

/** An index exists but was published by no completed ingestion (`lastIngestedAt` null). */
export function noIngestionDataDir(): Promise<string> {
  return syntheticDataDir({
    runs: [{ at: "2026-03-05T06:00:00.000Z", calendars: { "labour-stats-release-schedule": [EDGE_EVENTS.ppi0310] } }],
    facts: { lastIngestedAt: null, lastSuccessfulIngestionAt: null },
  });
}

/** A completed ingestion that found nothing: an index with no events and no observations. */
export function emptyIndexDataDir(): Promise<string> {
  return syntheticDataDir({ runs: [{ at: "2026-03-05T06:00:00.000Z" }] });
}

// ---------------------------------------------------------------------------------------------
// (c) The synthetic corpora (synthetic-economics-corpora.ts), each built once per worker process
// ---------------------------------------------------------------------------------------------

let edgeDir: Promise<string> | null = null;

/** The edge-case corpus (built once per worker process). */
export function edgeCaseDataDir(): Promise<string> {
  edgeDir ??= once(
    () => syntheticDataDir(EDGE_SPEC, keptDir("economics-edge-")),
    () => {
      edgeDir = null;
    },
  );
  return edgeDir;
}

let longTitleDir: Promise<string> | null = null;

/** The long-title corpus, whose pages cross the 1 MB response ceiling. */
export function longTitleDataDir(): Promise<string> {
  longTitleDir ??= once(
    () => syntheticDataDir(longTitleSpec(), keptDir("economics-long-titles-")),
    () => {
      longTitleDir = null;
    },
  );
  return longTitleDir;
}
