import { statSync } from "node:fs";
import Database from "better-sqlite3";

/** How soon a newly published index, registry or gazetteer is served, in milliseconds. */
export const PUBLISHED_FILE_RECHECK_MS = 50;

/**
 * A value read from a file the CLI replaces by atomic rename, read again when the file's identity changes, looked at
 * once per `recheckAfterMs` (positive). `lookNow`: the caller has reason to think the file changed within the period
 * (a key it does not know yet).
 */
export function createReloadingFile<T>(
  path: string,
  read: (path: string) => T,
  whenAbsent: () => T,
  { recheckAfterMs = PUBLISHED_FILE_RECHECK_MS } = {},
): (lookNow?: boolean) => T {
  let version: string | null = null;
  let value: T;
  let checkedInPeriod = Number.NaN;
  let failure: { error: unknown } | null = null;
  return (lookNow = false) => {
    // A stat is a system call: looked at once per period, not per request. Periods are aligned on the clock, so files
    // published together (an index and its registry) are looked at again at the same moments.
    if (!lookNow) {
      const period = Math.floor(performance.now() / recheckAfterMs);
      if (period === checkedInPeriod) {
        if (failure) throw failure.error;
        return value;
      }
      checkedInPeriod = period;
    }
    const current = fileVersion(path);
    // An unreadable file is read again at the next look, even unchanged: its failure may have passed (EMFILE, say).
    if (current !== version || failure) {
      try {
        value = current === "absent" ? whenAbsent() : read(path);
      } catch (error) {
        // Not served from before, nor read again within the period: a damaged file is not parsed per request.
        failure = { error };
        throw error;
      }
      failure = null;
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

/**
 * A read-only SQLite file the CLI publishes by atomic rename; when replaced, the old connection is closed (no query is
 * in flight: better-sqlite3 is synchronous). A file `prepare` cannot read counts as absent.
 */
export function createReloadingDatabase<T extends { db: Database.Database }>(
  path: string,
  prepare: (db: Database.Database) => T,
): () => T | null {
  let open: T | null = null;
  const replace = (next: T | null): T | null => {
    open?.db.close();
    open = next;
    return next;
  };
  return createReloadingFile<T | null>(
    path,
    (file) => replace(openPrepared(file, prepare)),
    () => replace(null),
  );
}

function openPrepared<T>(path: string, prepare: (db: Database.Database) => T): T | null {
  let db: Database.Database | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    // A published file is only ever replaced, never changed: holding its read lock spares every statement a lock,
    // an unlock and a change check (docs/performance.md).
    db.pragma("locking_mode = EXCLUSIVE");
    return prepare(db);
  } catch {
    db?.close();
    return null;
  }
}
