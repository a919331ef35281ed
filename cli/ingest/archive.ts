import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join } from "node:path";
import { DateTime } from "luxon";
import { writeFileAtomically } from "../../server/files/atomic-write.ts";
import { isFetchSidecar, readFetchSidecar } from "./fetch-sidecar.ts";

export interface ArchivedDocument {
  sha256: string;
  path: string;
  bytes: number;
}

export interface ReplayDocument {
  path: string;
  name: string;
  /** Null for a file over its source's ceiling: it is never read (`bytes` says how large it is). */
  body: Buffer | null;
  bytes: number;
}

/** A source's ceiling in bytes (cli/ingest/document-ceilings.ts); a file larger is listed, never read. */
export type CeilingOf = (source: string) => number;

function readWithin(path: string, ceiling: number): { body: Buffer | null; bytes: number } {
  const bytes = statSync(path).size;
  return { body: bytes > ceiling ? null : readFileSync(path), bytes };
}

/**
 * Raw upstream documents are kept by content hash under `<data dir>/archive/<source>/`, named `<fetch second>-<sha256>`.
 * A document the ledger already archived (`archivedPath`, from the store) is not written again; a `.tmp` left by a
 * killed run is never taken for it, since only the ledger's record counts. The order of fetches is kept apart from
 * the names (`FETCH_ORDER_FILE`): two documents fetched in one second, or one content fetched twice, have no order
 * in a folder listing.
 */
export function archiveDocument(
  archiveDir: string,
  source: string,
  body: Buffer,
  fetchedAt: string,
  extension: string,
  archivedPath: (sha256: string) => string | undefined,
): ArchivedDocument {
  const sha256 = createHash("sha256").update(body).digest("hex");
  const existing = archivedPath(sha256);
  if (existing && existsSync(existing)) return { sha256, path: existing, bytes: body.length };
  const path = join(archiveDir, source, `${stampOf(fetchedAt)}-${sha256}.${extension}`);
  writeFileAtomically(path, body);
  return { sha256, path, bytes: body.length };
}

/** Documents to replay for one source from a folder laid out per source (an archive, or `data/samples`), in name order. */
export function replayDocuments(dir: string, source: string, ceiling = Number.POSITIVE_INFINITY): ReplayDocument[] {
  const folder = join(dir, source);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter(
      (name) => !name.startsWith(".") && extname(name) !== ".md" && !name.endsWith(".tmp") && !isFetchSidecar(name),
    )
    .sort()
    .map((name) => ({ path: join(folder, name), name, ...readWithin(join(folder, name), ceiling) }));
}

const STAMP_FORMAT = "yyyyMMdd'T'HHmmss'Z'";

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
export function recordFetch(archiveDir: string, fetch: RecordedFetch): void {
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

/** A document of a replay, in the order it is to be applied. */
export interface PlannedDocument extends ReplayDocument {
  source: string;
  /** The fetch as recorded (a data directory's own archive), else null: a file whose fetch time is not on record. */
  recorded: RecordedFetch | null;
  /** When an older archive of this service fetched a file the record does not name, from its name (`20261121T060000Z-<sha256>.json`). */
  stampedAt: string | null;
  /**
   * When the publisher served a file the record does not name, as its sidecar states it (`data/samples`): an instant,
   * null when the recording states none, undefined without a sidecar.
   */
  statedAt?: string | null;
}

/**
 * The order in which to replay a folder: first every file the fetch record does not name (an archive written before
 * the record existed, or `data/samples`), per source in the given order, and within a source those whose fetch time is
 * not known first, in name order, then the others by fetch time (name order within one instant); then every recorded
 * fetch in the order it happened, across sources. A fetch whose file is missing is left out.
 */
export function replayPlan(
  dir: string,
  sources: readonly string[],
  ceilingOf: CeilingOf = () => Number.POSITIVE_INFINITY,
): PlannedDocument[] {
  const fetches = recordedFetches(dir).filter((fetch) => sources.includes(fetch.source));
  const named = new Set(fetches.map((fetch) => `${fetch.source}/${fetch.file}`));
  const plan: PlannedDocument[] = [];
  for (const source of sources) {
    const unrecorded = replayDocuments(dir, source, ceilingOf(source))
      .filter((file) => !named.has(`${source}/${file.name}`))
      .map((file): PlannedDocument => {
        const sidecar = readFetchSidecar(file.path);
        return { ...file, source, recorded: null, stampedAt: stampedAtOf(file.name), statedAt: sidecar?.fetchedAt };
      });
    // Stable: files of one instant (or of none) stay in name order.
    const time = (document: PlannedDocument) => document.statedAt ?? document.stampedAt ?? "";
    unrecorded.sort((a, b) => time(a).localeCompare(time(b)));
    plan.push(...unrecorded);
  }
  for (const fetch of fetches) {
    const path = join(dir, fetch.source, fetch.file);
    if (existsSync(path))
      plan.push({
        path,
        name: fetch.file,
        ...readWithin(path, ceilingOf(fetch.source)),
        source: fetch.source,
        recorded: fetch,
        stampedAt: null,
      });
  }
  return plan;
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

function stampOf(fetchedAt: string): string {
  return DateTime.fromISO(fetchedAt, { zone: "utc" }).toFormat(STAMP_FORMAT);
}

/** The fetch second of an archived file's name (this module's own naming), else null. */
function stampedAtOf(name: string): string | null {
  const stamp = /^(\d{8}T\d{6}Z)-[0-9a-f]{64}\./.exec(name)?.[1];
  if (!stamp) return null;
  const parsed = DateTime.fromFormat(stamp, STAMP_FORMAT, { zone: "utc" });
  return parsed.isValid ? parsed.toISO()! : null;
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
