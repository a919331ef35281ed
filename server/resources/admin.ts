import type { ServiceConfig } from "../config.ts";
import { ApiError } from "../http/api-error.ts";
import type { RouteHandler } from "../http/route-handler.ts";
import { readRecentRuns } from "../storage/runs-reader.ts";

/** Starts `service ingest` out of process; the CLI provides it, since only the CLI writes the store. */
export type IngestionLauncher = () => { alreadyRunning: boolean };

export function adminHandlers(config: ServiceConfig, launch: IngestionLauncher | null): Record<string, RouteHandler> {
  return {
    "v1.admin.ingestionRuns": () => {
      return { data: { runs: readRecentRuns(config.dataDir) } };
    },
    "v1.admin.ingestionTrigger": () => {
      if (!launch) throw new ApiError("CONFIGURATION_ERROR", "This deployment cannot start ingestion runs.");
      const { alreadyRunning } = launch();
      return { data: { started: !alreadyRunning, runs: readRecentRuns(config.dataDir) } };
    },
  };
}
