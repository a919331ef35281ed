import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writerFile } from "../abandoned-files.ts";
import { processAlive } from "../process-alive.ts";

const LOCK_FILE = "ingest.lock";

/** Whether another live process holds the ingestion lock of this data directory. */
export function ingestionRunning(dataDir: string): boolean {
  return ingestionLockHolder(dataDir) !== null;
}

/** The pid of the live process holding the ingestion lock of this data directory (the lock records it), or null. */
export function ingestionLockHolder(dataDir: string): number | null {
  const holder = lockHolder(join(dataDir, LOCK_FILE));
  return holder !== null && processAlive(holder) ? holder : null;
}

/**
 * The data directory's ingestion lock, or the error that refuses a command because another run holds it. The holder
 * is named, so the operator can tell a run that is working from one that hangs (and find it to stop it).
 */
export function requireIngestionLock(dataDir: string): () => void {
  const release = acquireIngestionLock(dataDir);
  if (release) return release;
  const holder = ingestionLockHolder(dataDir);
  throw new Error(
    `another ingestion run${holder === null ? "" : ` (pid ${holder})`} is in progress for this data directory`,
  );
}

/**
 * Takes the data directory's ingestion lock, so two runs never write the store at once. A lock left by a
 * killed run (its process is gone) is taken over. Returns the release function, or null when another run holds it.
 */
export function acquireIngestionLock(dataDir: string): (() => void) | null {
  const path = join(dataDir, LOCK_FILE);
  mkdirSync(dataDir, { recursive: true });
  // The pid is written first and the file linked into place, so a lock is never seen empty (and so never mistaken for stale).
  const staged = writerFile(path, "tmp");
  writeFileSync(staged, String(process.pid));
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        linkSync(staged, path);
        return () => rmSync(path, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const holder = lockHolder(path);
        // A lock naming this very process was left by a killed run whose PID has been reused (e.g. a restarted container).
        if (holder !== null && holder !== process.pid && processAlive(holder)) return null;
        rmSync(path, { force: true });
      }
    }
    return null;
  } finally {
    rmSync(staged, { force: true });
  }
}

function lockHolder(path: string): number | null {
  try {
    const pid = Number(readFileSync(path, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
