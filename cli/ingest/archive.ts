import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { writeFileAtomically } from "../../server/files/atomic-write.ts";
import { extname, join } from "node:path";
import { DateTime } from "luxon";

export interface ArchivedDocument {
  sha256: string;
  path: string;
  bytes: number;
}

export interface ReplayDocument {
  path: string;
  name: string;
  body: Buffer;
}

/**
 * Raw upstream documents are kept by content hash under `<data dir>/archive/<source>/`, named so that name order is
 * fetch order. A document the ledger already archived (`archivedPath`, from the store) is not written again; a `.tmp`
 * left by a killed run is never taken for it, since only the ledger's record counts.
 */
export function archiveDocument(archiveDir: string, source: string, body: Buffer, fetchedAt: string, extension: string, archivedPath: (sha256: string) => string | undefined): ArchivedDocument {
  const sha256 = createHash("sha256").update(body).digest("hex");
  const existing = archivedPath(sha256);
  if (existing && existsSync(existing)) return { sha256, path: existing, bytes: body.length };
  const stamp = DateTime.fromISO(fetchedAt, { zone: "utc" }).toFormat("yyyyMMdd'T'HHmmss'Z'");
  const path = join(archiveDir, source, `${stamp}-${sha256}.${extension}`);
  writeFileAtomically(path, body);
  return { sha256, path, bytes: body.length };
}

/** Documents to replay for one source from a folder laid out per source (an archive, or `data/samples`), in name order. */
export function replayDocuments(dir: string, source: string): ReplayDocument[] {
  const folder = join(dir, source);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => !name.startsWith(".") && extname(name) !== ".md" && !name.endsWith(".tmp"))
    .sort()
    .map((name) => ({ path: join(folder, name), name, body: readFileSync(join(folder, name)) }));
}
