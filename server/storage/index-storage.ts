import { join } from "node:path";
import type Database from "better-sqlite3";
import { DATA_FILES } from "../../schemas/data-files.ts";
import { PUBLICATION_KEYS, type PublicationFacts } from "../../schemas/index-ddl.ts";
import { createReloadingDatabase } from "../files/reloading-file.ts";
import { ApiError } from "../http/api-error.ts";

export interface OpenIndex {
  db: Database.Database;
  facts: PublicationFacts;
}

export interface IndexStorage {
  /** False on a deployment with no durable store bound. */
  durableStorage: boolean;
  /** The current published index, or null when there is none (or no store is bound). */
  current(): OpenIndex | null;
  /** Whether storage-backed routes can answer: store bound, index present, published by a completed ingestion. */
  ready(): boolean;
}

/** An index is published once a completed ingestion has recorded when it ran. */
const isPublished = (index: OpenIndex | null): index is OpenIndex => index?.facts.lastIngestedAt != null;

/** The index the CLI publishes; an unreadable one counts as absent (503, never half an answer). */
export function createIndexStorage(dataDir: string, durableStorage: boolean): IndexStorage {
  if (!durableStorage) return { durableStorage, current: () => null, ready: () => false };
  const current = createReloadingDatabase(join(dataDir, DATA_FILES.index), (db) => ({
    db,
    facts: publicationFacts(db),
  }));
  return { durableStorage, current, ready: () => isPublished(current()) };
}

export function publicationFacts(db: Database.Database): PublicationFacts {
  const rows = db.prepare("SELECT key, value FROM publication").all() as { key: string; value: string | null }[];
  const values = new Map(rows.map((row) => [row.key, row.value]));
  const facts = Object.fromEntries(PUBLICATION_KEYS.map((key) => [key, values.get(key) ?? null])) as PublicationFacts;
  // An index older than the dataRebuiltAt fact was rebuilt whenever it was published.
  return { ...facts, dataRebuiltAt: facts.dataRebuiltAt ?? facts.publishedAt };
}

/** The published index for one request, or the contract's 503 when there is none (never an empty 200). */
export function requireIndex(storage: IndexStorage): OpenIndex {
  const index = storage.current();
  if (!isPublished(index)) throw new ApiError("SERVICE_UNAVAILABLE");
  return index;
}

/** A read failing on a present index (damaged, or an older version's) is STORAGE_UNAVAILABLE, its cause logged. */
export function withStorageErrors<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError("STORAGE_UNAVAILABLE", undefined, { cause: error });
  }
}
