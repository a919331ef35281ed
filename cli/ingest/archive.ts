import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
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

/** Raw upstream documents are kept by content hash under `<data dir>/archive/<source>/`, named so that name order is fetch order. */
export function archiveDocument(archiveDir: string, source: string, body: Buffer, fetchedAt: string, extension: string): ArchivedDocument {
  const sha256 = createHash("sha256").update(body).digest("hex");
  const folder = join(archiveDir, source);
  mkdirSync(folder, { recursive: true });
  // A `.tmp` is what a run killed between write and rename left behind, possibly cut short: never the document.
  const existing = readdirSync(folder).find((name) => name.includes(sha256) && !name.endsWith(".tmp"));
  if (existing) return { sha256, path: join(folder, existing), bytes: body.length };
  const stamp = DateTime.fromISO(fetchedAt, { zone: "utc" }).toFormat("yyyyMMdd'T'HHmmss'Z'");
  const path = join(folder, `${stamp}-${sha256}.${extension}`);
  const temporary = `${path}.tmp`;
  writeFileSync(temporary, body);
  renameSync(temporary, path);
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
