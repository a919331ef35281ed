import { existsSync, readdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { UNFINISHED_WRITE_SUFFIX } from "../server/files/atomic-write.ts";
import { processAlive } from "./process-alive.ts";

/** SQLite's own files beside a database being written: a killed build leaves them too. */
const SQLITE_COMPANIONS = ["", "-journal", "-wal", "-shm"];

/** The file this process writes beside `live` before renaming it over it: `<live>.<pid>.<suffix>`. */
export function writerFile(live: string, suffix: string): string {
  return `${live}.${process.pid}.${suffix}`;
}

/**
 * Removes what killed writers of `live` left beside it: files named `<live>.<pid>.<suffix>` (with their SQLite
 * journals). A signal (Ctrl-C) or a kill runs no `finally`, and the next writer has another pid, so nothing else
 * would ever remove them. `spare: "live-writers"` keeps the files of a process still running (another build of the
 * same file may be under way); `"none"` is for a writer under the ingestion lock, where no other one can be.
 * A file naming this very process is always removed: it was left by an earlier process whose pid was reused.
 */
export function removeAbandonedFiles(live: string, suffix: string, spare: "live-writers" | "none"): void {
  const folder = dirname(live);
  const prefix = `${basename(live)}.`;
  for (const name of readdirSync(folder)) {
    if (!name.startsWith(prefix)) continue;
    const match = /^(\d+)\.(.+)$/.exec(name.slice(prefix.length));
    if (!match || !SQLITE_COMPANIONS.some((companion) => match[2] === `${suffix}${companion}`)) continue;
    const pid = Number(match[1]);
    if (spare === "live-writers" && pid !== process.pid && processAlive(pid)) continue;
    rmSync(join(folder, name), { force: true });
  }
}

/** A file `writeFileAtomically` had not finished: `<file>.<pid>.tmp`. */
const UNFINISHED_WRITE = new RegExp(`\\.\\d+\\.${UNFINISHED_WRITE_SUFFIX}$`);

/**
 * Removes the documents killed runs left half-written in the archive's source folders (`<document>.<pid>.tmp`). For a
 * writer under the ingestion lock, where no other run is writing one; the archive's documents have no fixed names.
 */
export function removeUnfinishedDocuments(archiveDir: string): void {
  if (!existsSync(archiveDir)) return;
  for (const entry of readdirSync(archiveDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const folder = join(archiveDir, entry.name);
    for (const name of readdirSync(folder))
      if (UNFINISHED_WRITE.test(name)) rmSync(join(folder, name), { force: true });
  }
}
