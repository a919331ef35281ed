import { existsSync, readFileSync } from "node:fs";
import { writeFileAtomically } from "../files/atomic-write.ts";
import { createReloadingFile } from "../files/reloading-file.ts";
import type { KeyFile, StoredKey } from "./api-keys.ts";

export function readKeyFile(path: string): KeyFile {
  if (!existsSync(path)) return { keys: [] };
  const parsed = JSON.parse(readFileSync(path, "utf8")) as KeyFile;
  if (!parsed || !Array.isArray(parsed.keys)) throw new Error(`key file ${path} is not a key list`);
  return parsed;
}

/** Readable by its owner only: it holds hashes, not secrets, but nobody else needs it. */
export function writeKeyFile(path: string, file: KeyFile): void {
  writeFileAtomically(path, `${JSON.stringify(file, null, 2)}\n`, 0o600);
}

/** The server's view of the key file: new and revoked keys apply without restart. */
export function createKeyLookup(path: string): (id: string) => StoredKey | undefined {
  const byId = createReloadingFile(
    path,
    (file) => new Map(readKeyFile(file).keys.map((key) => [key.id, key])),
    () => new Map<string, StoredKey>(),
  );
  return (id) => byId().get(id);
}
