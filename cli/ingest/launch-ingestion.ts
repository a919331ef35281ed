import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { IngestionLauncher } from "../../server/resources/admin.ts";
import { ingestionRunning } from "./run-lock.ts";

const BIN = fileURLToPath(new URL("../bin.js", import.meta.url));

/** Starts `service ingest` as a detached child with the server's environment, unless a run already holds the lock. */
export function createIngestionLauncher(dataDir: string, env: NodeJS.ProcessEnv): IngestionLauncher {
  return () => {
    if (ingestionRunning(dataDir)) return { alreadyRunning: true };
    const child = spawn(process.execPath, [BIN, "ingest", "--data-dir", dataDir], { env, detached: true, stdio: "ignore" });
    child.unref();
    return { alreadyRunning: false };
  };
}
