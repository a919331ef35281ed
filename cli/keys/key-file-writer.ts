// The key file as `service keys` changes it: written whole, under a lock. The server only reads it
// (server/keys/key-file.ts).
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { lock } from "proper-lockfile";
import { writeFileAtomically } from "../../server/files/atomic-write.ts";
import type { KeyFile } from "../../server/keys/api-keys.ts";
import { readKeyFile } from "../../server/keys/key-file.ts";

/** Readable by its owner only: it holds hashes, not secrets, but nobody else needs it. */
export function writeKeyFile(path: string, file: KeyFile): void {
  writeFileAtomically(path, `${JSON.stringify(file, null, 2)}\n`, 0o600);
}

/**
 * Reads, changes and rewrites the key file under an exclusive lock (`<path>.lock`, proper-lockfile), so concurrent
 * `service keys` commands never lose each other's changes: a revocation that silently did not happen would leave a
 * key working. Waits up to about 10 s for another command; a lock left by a killed one is taken over after 10 s.
 */
export async function updateKeyFile<T>(
  path: string,
  change: (file: KeyFile) => { file: KeyFile; result: T } | { file: null; result: T },
): Promise<T> {
  mkdirSync(dirname(path), { recursive: true });
  const release = await lock(path, {
    realpath: false,
    lockfilePath: `${path}.lock`,
    stale: 10_000,
    retries: { retries: 100, minTimeout: 10, maxTimeout: 100 },
  });
  try {
    const { file, result } = change(readKeyFile(path));
    if (file) writeKeyFile(path, file);
    return result;
  } finally {
    await release();
  }
}
