import Database from "better-sqlite3";
import { readFileSync } from "node:fs";
import type { GenerationFile } from "../../schemas/index-manifest.ts";
import { builtRegistrySchema } from "../../schemas/registry-schema.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { compileAssertion } from "../../schemas/validator.ts";

const assertBuiltRegistry = compileAssertion<BuiltRegistry>(builtRegistrySchema, "registry");

/**
 * A downloaded file is swapped in only when the server can read it: a registry that is the registry's JSON, an
 * index that opens and holds its publication facts. A matching hash proves only that the bytes are the ones the
 * manifest names, not that a writer published something a reader can serve.
 */
export function assertServable(file: GenerationFile, path: string): void {
  if (file === "registry") {
    assertBuiltRegistry(JSON.parse(readFileSync(path, "utf8")));
    return;
  }
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.prepare("SELECT key, value FROM publication").all();
  } finally {
    db.close();
  }
}
