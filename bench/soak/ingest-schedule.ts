/**
 * Ingestion under load, as an operator's cron would run it: the real CLI (`service ingest --from-archive`) on the
 * service's own data directory, once a minute. Each run rebuilds the index and renames it over the live file, so
 * every run is a new index generation the service must switch to while it answers.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { ingestArchive } from "../service-benchmark/data-dir.ts";

/** A replay of the sample archive takes under a second; far past this, the run is stuck rather than slow. */
const INGEST_TIMEOUT_MS = 120_000;

export interface IngestRun {
  startedAtSeconds: number;
  elapsedMs: number;
  ok: boolean;
  /** The CLI's closing summary line, or why the run failed. */
  summary: string;
  peakRssMb: number | null;
  /** The index file's inode before and after: a different one means a new file was published by rename. */
  inodeBefore: number | null;
  inodeAfter: number | null;
  published: boolean;
}

export interface IngestScheduleOptions {
  dataDir: string;
  archiveDir: string;
  environment: string;
  everyMs: number;
  /** No run starts later than this many ms after the schedule started (the load's own end). */
  durationMs: number;
  log: (line: string) => void;
}

function inode(path: string): number | null {
  try {
    return statSync(path).ino;
  } catch {
    return null;
  }
}

/** Starts the schedule; `finished` resolves with every run once the last one (never overlapping the next) is over. */
export function startIngestSchedule(options: IngestScheduleOptions): { finished: Promise<IngestRun[]> } {
  const started = performance.now();
  const indexFile = join(options.dataDir, "index.sqlite");
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  async function runOnce(): Promise<IngestRun> {
    const startedAtSeconds = (performance.now() - started) / 1000;
    const inodeBefore = inode(indexFile);
    const runStarted = performance.now();
    try {
      const run = await ingestArchive({
        dataDir: options.dataDir,
        archiveDir: options.archiveDir,
        environment: options.environment,
        ingestTimeoutMs: INGEST_TIMEOUT_MS,
      });
      const inodeAfter = inode(indexFile);
      const summary = run.stdout.trim().split("\n").at(-1) ?? "";
      return {
        startedAtSeconds,
        elapsedMs: run.elapsedMs,
        ok: true,
        summary,
        peakRssMb: run.peakRssMb,
        inodeBefore,
        inodeAfter,
        published: inodeAfter !== null && inodeAfter !== inodeBefore,
      };
    } catch (error) {
      const inodeAfter = inode(indexFile);
      const summary = (error instanceof Error ? error.message : String(error)).split("\n").slice(0, 3).join(" | ");
      return {
        startedAtSeconds,
        elapsedMs: performance.now() - runStarted,
        ok: false,
        summary,
        peakRssMb: null,
        inodeBefore,
        inodeAfter,
        published: inodeAfter !== inodeBefore,
      };
    }
  }

  async function schedule(): Promise<IngestRun[]> {
    const runs: IngestRun[] = [];
    // Runs at every whole `everyMs` after the start; one that overran its minute delays the next rather than overlaps it.
    for (let next = options.everyMs; next < options.durationMs; next += options.everyMs) {
      await sleep(Math.max(0, next - (performance.now() - started)));
      const run = await runOnce();
      options.log(
        `ingestion ${runs.length + 1}: ${run.ok ? "ok" : "FAILED"} in ${(run.elapsedMs / 1000).toFixed(2)} s, ${run.published ? "new index published" : "NO new index"} (${run.summary})`,
      );
      runs.push(run);
    }
    return runs;
  }

  return { finished: schedule() };
}
