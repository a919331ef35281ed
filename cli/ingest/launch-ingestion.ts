import { spawn, type ChildProcess } from "node:child_process";
import type { IngestionLauncher } from "../../server/resources/admin.ts";
import { ingestionRunning } from "./run-lock.ts";
import { packagePath } from "../package-paths.ts";

const BIN = packagePath("cli/bin.js");

/**
 * Starts `service ingest` as a detached child with the server's environment, unless a run is in progress: one this
 * server started (still starting up, so not yet holding the lock) or any other holding the data directory's lock.
 * The run publishes the registry the server reads, so it is handed the server's registry folder when one was named.
 */
export function createIngestionLauncher(dataDir: string, env: NodeJS.ProcessEnv, registryDir?: string): IngestionLauncher {
  let child: ChildProcess | null = null;
  return () => {
    if (child !== null || ingestionRunning(dataDir)) return { alreadyRunning: true };
    const started = spawn(process.execPath, [BIN, "ingest", "--data-dir", dataDir, ...(registryDir ? ["--registry-dir", registryDir] : [])], { env, detached: true, stdio: "ignore" });
    child = started;
    started.once("exit", () => {
      child = null;
    });
    started.unref();
    return { alreadyRunning: false };
  };
}
