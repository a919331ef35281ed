import { copyFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { FETCH_SIDECAR_SUFFIX } from "../../cli/ingest/fetch-sidecar.ts";

/**
 * Writes a test's document into an archive folder with the fetch time it stands for in a sidecar, as the sample archive
 * states its recordings' (cli/ingest/fetch-sidecar.ts): the test's own convention is the first `YYYY-MM-DD` (or
 * `YYYY-MM-DDTHH:MM:SSZ`) in the name, at midnight UTC for a day. A replay reads the sidecar, never the name.
 */
export function writeDatedDocument(path: string, body: string | Buffer): void {
  writeFileSync(path, body);
  stateFetchTime(path, fetchTimeInName(basename(path)));
}

/**
 * States when the document at `path` was fetched, in its sidecar; `stated` says where that time comes from (for a
 * modified copy: that it is modified, and that the time is the test's).
 */
export function stateFetchTime(
  path: string,
  fetchedAt: string | null,
  stated = "a test's document: the time its name stands for",
): void {
  writeFileSync(`${path}${FETCH_SIDECAR_SUFFIX}`, `${JSON.stringify({ fetchedAt, stated })}\n`);
}

/** Copies a recorded document (`data/samples`) with its own sidecar: the fetch time its recording states, unchanged. */
export function copyRecordedDocument(from: string, to: string): void {
  copyFileSync(from, to);
  copyFileSync(`${from}${FETCH_SIDECAR_SUFFIX}`, `${to}${FETCH_SIDECAR_SUFFIX}`);
}

function fetchTimeInName(name: string): string {
  const match = /(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z)?/.exec(name);
  if (!match) throw new Error(`${name}: no date in the name to stand for its fetch time`);
  return `${match[1]}${match[2] ?? "T00:00:00Z"}`;
}
