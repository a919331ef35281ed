import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Makes a finished file visible under its live name in one step: synced to disk, then renamed over the live one
 * (same folder, so one filesystem). A reader sees the old file or the new one, never half of one.
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

/**
 * What ends the name of a file `writeFileAtomically` is still writing, `<destination>.<pid>.tmp`: the name a killed
 * writer leaves behind (cli/abandoned-files.ts removes them).
 */
export const UNFINISHED_WRITE_SUFFIX = "tmp";

/** Writes a whole file beside its destination, then replaces the destination with it. */
export function writeFileAtomically(path: string, data: string | Buffer, mode?: number): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${UNFINISHED_WRITE_SUFFIX}`;
  writeFileSync(temporary, data, mode === undefined ? undefined : { mode });
  replaceAtomically(temporary, path);
}
