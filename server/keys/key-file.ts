import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { createReloadingFile } from "../files/reloading-file.ts";
import type { KeyFile, StoredKey } from "./api-keys.ts";

export function readKeyFile(path: string): KeyFile {
  if (!existsSync(path)) return { keys: [] };
  const parsed = JSON.parse(readFileSync(path, "utf8")) as KeyFile;
  if (!parsed || !Array.isArray(parsed.keys)) throw new Error(`key file ${path} is not a key list`);
  return parsed;
}

/** Written beside the live file and renamed over it, so a reader never sees half a file. */
export function writeKeyFile(path: string, file: KeyFile): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
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
