import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The archive's record of fetches, one JSON line per fetch in the order they happened, beside the source folders. */
export const FETCH_ORDER_FILE = "fetch-order.jsonl";

/** One fetch of a document, as the archive records it. */
export interface RecordedFetch {
  source: string;
  /** The archived file, in `<archive>/<source>/`. */
  file: string;
  sha256: string;
  /** When the run observed the document: the time its values, evidence and sightings carry. */
  fetchedAt: string;
  /** When the publisher served it, where that differs (a sample replayed: its sidecar's time). */
  retrievedAt: string | null;
  /** True when nothing recorded when the publisher served it (an old recording replayed): `fetchedAt` is the run's time. */
  fetchTimeUnknown?: boolean;
  url: string;
  runId: string;
}

/** Appends one fetch to the archive's record. A line cut by a killed run is ignored on reading. */
function recordFetch(archiveDir: string, fetch: RecordedFetch): void {
  mkdirSync(archiveDir, { recursive: true });
  appendFileSync(join(archiveDir, FETCH_ORDER_FILE), `${JSON.stringify(fetch)}\n`);
}

/** The fetches an archive records, in order; none for a folder without a record (an older archive, `data/samples`). */
export function recordedFetches(archiveDir: string): RecordedFetch[] {
  const path = join(archiveDir, FETCH_ORDER_FILE);
  if (!existsSync(path)) return [];
  const fetches: RecordedFetch[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const fetch = parsedFetch(line);
    if (fetch) fetches.push(fetch);
  }
  return fetches;
}

/**
 * Records each fetch in the data directory's archive once: a replay of that very archive (or of one recorded again)
 * finds its fetches already there and adds nothing.
 */
export function fetchOrderRecorder() {
  let known: Set<string> | null = null;
  const key = (fetch: RecordedFetch) => `${fetch.source}\n${fetch.sha256}\n${fetch.fetchedAt}`;
  return {
    record(archiveDir: string, fetch: RecordedFetch): void {
      known ??= new Set(recordedFetches(archiveDir).map(key));
      if (known.has(key(fetch))) return;
      recordFetch(archiveDir, fetch);
      known.add(key(fetch));
    },
  };
}

function parsedFetch(line: string): RecordedFetch | null {
  if (line.trim() === "") return null;
  try {
    const value = JSON.parse(line) as Partial<RecordedFetch>;
    const text = (field: unknown) => typeof field === "string" && field !== "";
    if (![value.source, value.file, value.sha256, value.fetchedAt, value.url, value.runId].every(text)) return null;
    // Names inside the archive only: a record never points elsewhere.
    if ([value.file!, value.source!].some((name) => name.includes("/") || name.includes("\\") || name.startsWith(".")))
      return null;
    return {
      ...value,
      retrievedAt: text(value.retrievedAt) ? value.retrievedAt! : null,
      ...(value.fetchTimeUnknown === true ? { fetchTimeUnknown: true } : {}),
    } as RecordedFetch;
  } catch {
    return null;
  }
}
