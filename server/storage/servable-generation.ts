import Database from "better-sqlite3";
import type { GenerationFile } from "../../schemas/index-manifest.ts";
import { readRegistryFile } from "../registry/registry-file.ts";

/**
 * A downloaded file is swapped in only when the server can read it: a registry that is the registry's JSON, an
 * index that opens and holds its publication facts. A matching hash proves only that the bytes are the ones the
 * manifest names, not that a writer published something a reader can serve.
 */
export function assertServable(file: GenerationFile, path: string): void {
  if (file === "registry") {
    readRegistryFile(path);
    return;
  }
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.prepare("SELECT key, value FROM publication").all();
  } finally {
    db.close();
  }
}
