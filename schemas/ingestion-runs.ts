import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { DateTime } from "luxon";
import { DATA_FILES } from "./data-files.ts";

/**
 * How an ingestion run is named and where an operator-launched run writes its progress: the CLI names runs and
 * writes the log, the server answers for them by these names, so both read the rule from here.
 */

/** `run_20261121T120000_a1b2c3`: the start in UTC to the second, and three random bytes. */
export const RUN_ID_PATTERN = /^run_\d{8}T\d{6}_[0-9a-f]{6}$/;

export function newRunId(startedAtMs: number): string {
  return `run_${DateTime.fromMillis(startedAtMs, { zone: "utc" }).toFormat("yyyyMMdd'T'HHmmss")}_${randomBytes(3).toString("hex")}`;
}

/** The progress log of a run started through the operator route (the child's stderr and stdout, as `service ingest` prints them). */
export function ingestionLogFile(dataDir: string, runId: string): string {
  if (!RUN_ID_PATTERN.test(runId)) throw new Error(`not a run id: ${runId}`);
  return resolve(join(dataDir, DATA_FILES.logs, `ingestion-${runId}.log`));
}

export interface LaunchedRun {
  id: string;
  launchedAt: string;
  /** Where the run's progress is written (schemas/ingestion-runs.ts). */
  logFile: string;
  /** How its process ended; null while it runs. */
  exit: { at: string; code: number | null; signal: string | null } | null;
}

/** Starts `service ingest` out of process; the CLI provides it, since only the CLI writes the store. */
export interface IngestionLauncher {
  /**
   * Starts a run unless one is in progress. `run` is the run started, or this launcher's own run still in progress;
   * null when another process (a scheduled `service ingest`) holds the data directory. With `due`, the run is
   * `service ingest --due`, and none starts when nothing is due (`nothingDue` says until when).
   */
  start(options?: { due?: boolean }): { started: boolean; run: LaunchedRun | null; nothingDue?: string };
  /** One of the most recent runs this launcher started. */
  launched(runId: string): LaunchedRun | undefined;
}
