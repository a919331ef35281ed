import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { DATA_FILES } from "../../schemas/data-files.ts";
import { readRegistryFile } from "../../server/registry/registry-file.ts";

/**
 * The data files `service query` reads that are there but cannot be read (a registry that is not JSON or not of the
 * registry's shape, an index that is not a database), each said in a line naming the file, why, and the command that
 * writes it again. The API's readers take a damaged file for a missing one (a generic
 * "not available" answer, right for a client); an operator at the terminal needs to know which file to look at.
 */
export function unreadableDataFiles(dataDir: string, durableStorage: boolean): string[] {
  const registry = join(dataDir, DATA_FILES.registry);
  const index = join(dataDir, DATA_FILES.index);
  return [
    unreadable("registry", registry, () => readRegistryFile(registry), "service registry"),
    ...(durableStorage ? [unreadable("index", index, () => readPublicationFacts(index), "service ingest")] : []),
  ].filter((line): line is string => line !== null);
}

/**
 * The line `service query` prints for an answer saying the data is not there (SERVICE_UNAVAILABLE and kin), naming the
 * data directory looked in: the files it lacks and the command that writes them, or else the API's own message.
 */
export function noDataLine(code: string, message: string, dataDir: string, durableStorage: boolean): string {
  const expected = durableStorage ? [DATA_FILES.registry, DATA_FILES.index] : [DATA_FILES.registry];
  const missing = expected.filter((name) => !existsSync(join(dataDir, name)));
  if (missing.length === 0)
    return `${code}: ${message} (data directory ${dataDir}${durableStorage ? "" : "; SERVICE_STORAGE is false"})`;
  return `${code}: no ${missing.join(" or ")} in data directory ${dataDir}: write ${missing.length > 1 ? "them" : "it"} with \`service ingest --data-dir ${dataDir}\``;
}

function unreadable(what: string, path: string, read: () => unknown, remedy: string): string | null {
  if (!existsSync(path)) return null;
  try {
    read();
    return null;
  } catch (error) {
    return `${what} ${path} could not be read (${error instanceof Error ? error.message : String(error)}): publish it again with \`${remedy}\``;
  }
}

/** What the server reads first from an index (server/storage/index-storage.ts): a file that fails here counts as none. */
function readPublicationFacts(path: string): void {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.prepare("SELECT key, value FROM publication").all();
  } finally {
    db.close();
  }
}
