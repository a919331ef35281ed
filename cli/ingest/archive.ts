import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join } from "node:path";
import { DateTime } from "luxon";
import { writeFileAtomically } from "../../server/files/atomic-write.ts";
import { type RecordedFetch, recordedFetches } from "./fetch-order.ts";
import { isFetchSidecar, readFetchSidecar } from "./fetch-sidecar.ts";

interface ArchivedDocument {
  sha256: string;
  path: string;
  bytes: number;
}

interface ReplayDocument {
  path: string;
  name: string;
  /** Null for a file over its source's ceiling: it is never read (`bytes` says how large it is). */
  body: Buffer | null;
  bytes: number;
}

/** A source's ceiling in bytes (cli/ingest/document-ceilings.ts); a file larger is listed, never read. */
type CeilingOf = (source: string) => number;

function readWithin(path: string, ceiling: number): { body: Buffer | null; bytes: number } {
  const bytes = statSync(path).size;
  return { body: bytes > ceiling ? null : readFileSync(path), bytes };
}

/**
 * Raw upstream documents are kept by content hash under `<data dir>/archive/<source>/`, named `<fetch second>-<sha256>`.
 * A document the ledger already archived (`archivedPath`, from the store) is not written again; a `.tmp` left by a
 * killed run is never taken for it, since only the ledger's record counts. The order of fetches is kept apart from
 * the names (fetch-order.ts): two documents fetched in one second, or one content fetched twice, have no order
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

/** A document of a replay, in the order it is to be applied. */
interface PlannedDocument extends ReplayDocument {
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
