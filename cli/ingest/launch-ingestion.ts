import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { IngestionLauncher } from "../../server/resources/admin.ts";
import { ingestionRunning } from "./run-lock.ts";

const BIN = fileURLToPath(new URL("../bin.js", import.meta.url));

/**
 * Starts `service ingest` as a detached child with the server's environment, unless a run is in progress: one this
 * server started (still starting up, so not yet holding the lock) or any other holding the data directory's lock.
 */
export function createIngestionLauncher(dataDir: string, env: NodeJS.ProcessEnv): IngestionLauncher {
  let child: ChildProcess | null = null;
  return () => {
    if (child !== null || ingestionRunning(dataDir)) return { alreadyRunning: true };
    const started = spawn(process.execPath, [BIN, "ingest", "--data-dir", dataDir], { env, detached: true, stdio: "ignore" });
    child = started;
    started.once("exit", () => {
      child = null;
    });
    started.unref();
    return { alreadyRunning: false };
  };
}
