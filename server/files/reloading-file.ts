import { statSync } from "node:fs";

/**
 * A value read from a file that another process (the CLI) replaces by atomic rename.
 * It is re-read when the file's identity changes, so the server picks up new files without restart.
 */
export function createReloadingFile<T>(path: string, read: (path: string) => T, whenAbsent: () => T): () => T {
  let version: string | null = null;
  let value: T;
  return () => {
    const current = fileVersion(path);
    if (current !== version) {
      value = current === "absent" ? whenAbsent() : read(path);
      version = current;
    }
    return value;
  };
}

/** A file's identity: it changes when the file is replaced (new inode) or rewritten; "absent" when there is none. */
export function fileVersion(path: string): string {
  try {
    const stat = statSync(path);
    return `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
  } catch {
    return "absent";
  }
}
