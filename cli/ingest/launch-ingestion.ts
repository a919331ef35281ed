import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { IngestionLauncher, LaunchedRun } from "../../schemas/ingestion-runs.ts";
import { ingestionLogFile, newRunId } from "../../schemas/ingestion-runs.ts";
import { ApiError } from "../../server/http/api-error.ts";
import { ConfigError } from "../env-values.ts";
import { registryDirFrom } from "../file-locations.ts";
import { packagePath } from "../package-paths.ts";
import { nothingDueNow } from "./due/due-run.ts";
import { ingestClockFrom } from "./due/due-settings.ts";
import { ingestionRunning } from "./run-lock.ts";

const BIN = packagePath("cli/bin.js");

/** Launched runs remembered for the run route; enough for the runs an operator is still looking at. */
const REMEMBERED_RUNS = 20;

/**
 * Starts `service ingest` as a detached child with the server's environment, unless a run is in progress: one this
 * server started (still starting up, so not yet holding the lock) or any other holding the data directory's lock.
 * The run's id is chosen here and handed to the child (`--run-id`), so the operator gets it at once; the child's
 * stderr and stdout (its progress lines and summary, exactly as `service ingest` prints them) go to
 * `<dataDir>/logs/ingestion-<runId>.log`. The run publishes the registry the server reads, so it is handed the
 * server's registry folder when one was named.
 */
export function createIngestionLauncher(
  dataDir: string,
  env: NodeJS.ProcessEnv,
  registryDir?: string,
): IngestionLauncher {
  const launched = new Map<string, LaunchedRun>();
  let current: LaunchedRun | null = null;

  function remember(run: LaunchedRun): void {
    launched.set(run.id, run);
    for (const id of launched.keys()) {
      if (launched.size <= REMEMBERED_RUNS) break;
      launched.delete(id);
    }
  }

  return {
    start({ due = false } = {}) {
      if (current !== null) return { started: false, run: current };
      if (ingestionRunning(dataDir)) return { started: false, run: null };
      if (due) {
        const nothingDue = nothingDueForLauncher(dataDir, env, registryDir);
        if (nothingDue !== null) return { started: false, run: null, nothingDue };
      }
      const launchedAt = Date.now();
      const run: LaunchedRun = {
        id: newRunId(launchedAt),
        launchedAt: new Date(launchedAt).toISOString(),
        logFile: "",
        exit: null,
      };
      run.logFile = ingestionLogFile(dataDir, run.id);
      const log = openRunLog(run.logFile);
      try {
        writeSync(
          log,
          `ingestion run ${run.id} started through the operator route by the service (pid ${process.pid}) at ${run.launchedAt}\n`,
        );
        const args = [
          BIN,
          "ingest",
          "--data-dir",
          dataDir,
          "--run-id",
          run.id,
          ...(registryDir ? ["--registry-dir", registryDir] : []),
          ...(due ? ["--due"] : []),
        ];
        const child = spawn(process.execPath, args, { env, detached: true, stdio: ["ignore", log, log] });
        const ended = (code: number | null, signal: string | null) => {
          run.exit ??= { at: new Date().toISOString(), code, signal };
          if (current === run) current = null;
        };
        child.once("exit", ended);
        // A process that could not be started at all never exits; it failed all the same.
        child.once("error", () => ended(null, null));
        child.unref();
      } finally {
        // The child holds its own copy of the descriptor.
        closeSync(log);
      }
      current = run;
      remember(run);
      return { started: true, run };
    },
    launched: (runId) => launched.get(runId),
  };
}

/** The run's log, opened for appending; a deployment whose data directory cannot hold it cannot start runs. */
function openRunLog(path: string): number {
  try {
    mkdirSync(dirname(path), { recursive: true });
    return openSync(path, "a");
  } catch {
    throw new ApiError(
      "CONFIGURATION_ERROR",
      "The run's log file cannot be written in the data directory's logs folder.",
    );
  }
}

/**
 * The answer to a due run asked for when nothing is due, read as `service ingest --due` reads it (so no process is
 * started for nothing); null when something is due. Settings the run could not start with are the deployment's problem.
 */
function nothingDueForLauncher(
  dataDir: string,
  env: NodeJS.ProcessEnv,
  registryDir: string | undefined,
): string | null {
  try {
    // The registry folder the run will read: the launcher's, else SERVICE_REGISTRY_DIR, else the package's.
    return nothingDueNow(dataDir, registryDirFrom(env, registryDir), ingestClockFrom(env)(), env, null);
  } catch (error) {
    if (error instanceof ConfigError)
      throw new ApiError("CONFIGURATION_ERROR", "The deployment's settings for due runs are not valid.");
    throw new ApiError("STORAGE_UNAVAILABLE", "The store's calendar cannot be read.");
  }
}
