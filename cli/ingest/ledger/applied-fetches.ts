import type Database from "better-sqlite3";

/**
 * Which fetches of calendar and value documents the ledger has applied, under which registry (by content hashes), and
 * which contents it has applied at all (`applied_documents`, for a replayed document whose fetch time is not on
 * record). A replay applies each recorded fetch once, in order: the same content fetched again later (a publisher
 * undoing a change) is applied again at its place, while a second replay of the same archive applies nothing.
 */
export function appliedFetches(db: Database.Database) {
  const statements = {
    record: db.prepare(
      "INSERT OR IGNORE INTO applied_fetches (source, sha256, fetched_at, registry_sha256, run_id) VALUES (?, ?, ?, ?, ?)",
    ),
    fetch: db
      .prepare(
        "SELECT 1 FROM applied_fetches WHERE source = ? AND sha256 = ? AND fetched_at = ? AND registry_sha256 = ?",
      )
      .pluck(),
    anyFetchOfContent: db
      .prepare("SELECT 1 FROM applied_fetches WHERE source = ? AND sha256 = ? AND registry_sha256 = ? LIMIT 1")
      .pluck(),
    content: db
      .prepare("SELECT 1 FROM applied_documents WHERE source = ? AND sha256 = ? AND registry_sha256 = ?")
      .pluck(),
  };
  const contentApplied = (source: string, sha256: string, registrySha256: string): boolean =>
    statements.content.get(source, sha256, registrySha256) !== undefined;
  return {
    record: (source: string, sha256: string, fetchedAt: string, registrySha256: string, runId: string) =>
      statements.record.run(source, sha256, fetchedAt, registrySha256, runId),
    /**
     * Whether this fetch was applied. Content applied by a version that did not record fetches counts as applied
     * for every fetch of it, so that replaying an older data directory's archive into it changes nothing.
     */
    wasApplied: (source: string, sha256: string, fetchedAt: string, registrySha256: string): boolean =>
      statements.fetch.get(source, sha256, fetchedAt, registrySha256) !== undefined ||
      (contentApplied(source, sha256, registrySha256) &&
        statements.anyFetchOfContent.get(source, sha256, registrySha256) === undefined),
    /** Whether this content was applied, whatever fetch brought it: for a replayed document no fetch record names. */
    contentApplied,
  };
}
