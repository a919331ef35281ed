import Database from "better-sqlite3";
import { join } from "node:path";
import { DATA_FILES } from "../../schemas/data-files.ts";
import { PUBLICATION_KEYS, type PublicationFacts } from "../../schemas/index-ddl.ts";
import { createReloadingFile } from "../files/reloading-file.ts";

export interface OpenIndex {
  db: Database.Database;
  facts: PublicationFacts;
}

export interface IndexStorage {
  /** False on a deployment with no durable store bound. */
  bound: boolean;
  /** The current published index, or null when there is none (or no store is bound). */
  current(): OpenIndex | null;
  /** Whether storage-backed routes can answer: store bound, index present, published by a completed ingestion. */
  ready(): boolean;
}

/**
 * Reads the index the CLI publishes by atomic rename. A new file is noticed by its inode and opened
 * read-only; the old connection is closed. better-sqlite3 is synchronous, so no query is in flight then.
 */
export function createIndexStorage(dataDir: string, bound: boolean): IndexStorage {
  if (!bound) return { bound, current: () => null, ready: () => false };
  let open: OpenIndex | null = null;
  const current = createReloadingFile<OpenIndex | null>(
    join(dataDir, DATA_FILES.index),
    (path) => replace(openIndex(path)),
    () => replace(null),
  );
  function replace(next: OpenIndex | null): OpenIndex | null {
    open?.db.close();
    open = next;
    return next;
  }
  return { bound, current, ready: () => current()?.facts.lastIngestedAt != null };
}

function openIndex(path: string): OpenIndex | null {
  let db: Database.Database | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const rows = db.prepare("SELECT key, value FROM publication").all() as { key: string; value: string | null }[];
    const values = new Map(rows.map((row) => [row.key, row.value]));
    const facts = Object.fromEntries(PUBLICATION_KEYS.map((key) => [key, values.get(key) ?? null])) as PublicationFacts;
    return { db, facts };
  } catch {
    db?.close();
    // An unreadable index is reported as absent: storage-backed routes answer 503, never half an answer.
    return null;
  }
}
