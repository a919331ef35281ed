import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Syncs a finished file, then renames it over the live one (same folder, so one filesystem: only there is a rename
 * atomic): a reader never sees half a file.
 */
export function replaceAtomically(finished: string, live: string): void {
  const descriptor = openSync(finished, "r");
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  renameSync(finished, live);
}

/** Ends `<destination>.<pid>.tmp`, a file still being written (one a killed writer left: cli/abandoned-files.ts). */
export const UNFINISHED_WRITE_SUFFIX = "tmp";

/** Writes a whole file beside its destination, then replaces the destination with it. */
export function writeFileAtomically(path: string, data: string | Buffer, mode?: number): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${UNFINISHED_WRITE_SUFFIX}`;
  writeFileSync(temporary, data, mode === undefined ? undefined : { mode });
  replaceAtomically(temporary, path);
}
