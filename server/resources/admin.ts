import { existsSync } from "node:fs";
import type { IngestionLauncher, LaunchedRun } from "../../schemas/ingestion-runs.ts";
import { ingestionLogFile, RUN_ID_PATTERN } from "../../schemas/ingestion-runs.ts";
import { INGESTION_RUN_PATH } from "../../schemas/routes/admin.ts";
import type { ServiceConfig } from "../config.ts";
import { ApiError } from "../http/api-error.ts";
import { NO_ATTRIBUTION } from "../http/attribution-records.ts";
import { parseEnum } from "../http/params.ts";
import type { RouteHandlers } from "../http/route-handler.ts";
import { SerialisedSection } from "../http/serialised-section.ts";
import type { ServiceMetrics } from "../observability/metrics.ts";
import { readRecentRuns, readRun } from "../storage/ledger-reader.ts";

const DUE_VALUES = ["true", "false"] as const;

/** The operator routes answer with the service's own records of its runs: no publisher's data, no attribution. */
export function adminHandlers(config: ServiceConfig, launcher: IngestionLauncher | null): RouteHandlers {
  return {
    "v1.admin.ingestionRuns": () => ({ data: { runs: readRecentRuns(config.dataDir) }, staticMeta: NO_ATTRIBUTION }),
    "v1.admin.ingestionTrigger": ({ query }) => {
      if (!launcher) throw new ApiError("CONFIGURATION_ERROR", "This deployment cannot start ingestion runs.");
      const due = parseEnum(query.get("due"), DUE_VALUES, "due") === "true";
      const { started, run, nothingDue } = launcher.start({ due });
      const runs = runsIfReadable(config.dataDir);
      // A run another process started is found in the ledger once it has recorded itself (newest first).
      const runId = run?.id ?? runs.find((candidate) => candidate.outcome === "running")?.id ?? null;
      return {
        data: { started, runId, runs, ...(nothingDue === undefined ? {} : { nothingDue }) },
        staticMeta: NO_ATTRIBUTION,
        ...(runId ? { headers: { location: INGESTION_RUN_PATH.replace("{runId}", runId) } } : {}),
      };
    },
    "v1.admin.ingestionRun": ({ params }) => {
      const runId = params.runId ?? "";
      if (!RUN_ID_PATTERN.test(runId)) throw new ApiError("NOT_FOUND", "No ingestion run has this id.");
      const logFile = ingestionLogFile(config.dataDir, runId);
      const recorded = readRun(config.dataDir, runId);
      if (recorded)
        return {
          data: { run: { ...recorded, logFile: existsSync(logFile) ? logFile : null } },
          staticMeta: NO_ATTRIBUTION,
        };
      const launched = launcher?.launched(runId);
      if (!launched) throw new ApiError("NOT_FOUND", "No ingestion run has this id.");
      return { data: { run: unrecordedRun(launched) }, staticMeta: NO_ATTRIBUTION };
    },
  };
}

/** A launched run the ledger does not hold: still starting, or ended before recording itself (its log says why). */
function unrecordedRun(run: LaunchedRun) {
  const ending =
    run.exit &&
    (run.exit.signal
      ? `signal ${run.exit.signal}`
      : run.exit.code === null
        ? "it could not be started"
        : `exit code ${run.exit.code}`);
  return {
    id: run.id,
    startedAt: run.launchedAt,
    finishedAt: run.exit?.at ?? null,
    outcome: run.exit ? ("failed" as const) : ("running" as const),
    sources: [],
    detail: ending ? `the ingestion process ended before recording its run (${ending}); its log file says why` : null,
    logFile: run.logFile,
  };
}

/** The Prometheus exposition, served bare as text. */
export function metricsHandlers(metrics: ServiceMetrics): RouteHandlers {
  return {
    "v1.admin.metrics": async () => ({ data: new SerialisedSection(await metrics.scrape()) }),
  };
}

/** The ledger's recent runs, or none when it cannot be read: a run that has started must still be answered 202. */
function runsIfReadable(dataDir: string): ReturnType<typeof readRecentRuns> {
  try {
    return readRecentRuns(dataDir);
  } catch {
    return [];
  }
}
