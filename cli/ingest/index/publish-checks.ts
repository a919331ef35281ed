import { constants, copyFileSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { DATA_FILES } from "../../../schemas/data-files.ts";
import { replaceAtomically } from "../../../server/files/atomic-write.ts";
import { publicationFacts } from "../../../server/storage/index-storage.ts";
import { removeAbandonedFiles, writerFile } from "../../abandoned-files.ts";
import type { Store } from "../ledger/store.ts";

/** One source's row of the index's `source_checks`, as the ledger gives it. */
interface SourceCheckRow {
  source: string;
  last_received_at: string | null;
  last_success_at: string | null;
  latest_check: string;
  checked_at: string;
}

/** What `republishSourceChecks` did: a new generation, none needed (the index states these checks), or no index. */
export type ChecksPublication = "published" | "unchanged" | "no-index";

/**
 * Per source: its latest check, the last time it succeeded and the last time a document arrived (spec
 * `meta.sourceChecks`, status route).
 */
function ledgerChecks(store: Store): SourceCheckRow[] {
  const latest = store.db
    .prepare(`
    SELECT source,
      (SELECT max(fetched_at) FROM documents d WHERE d.source = c.source) AS last_received_at,
      result AS latest_check, checked_at
    FROM source_checks c
    WHERE checked_at = (SELECT max(checked_at) FROM source_checks s WHERE s.source = c.source)
    GROUP BY source
    ORDER BY source`)
    .all() as Omit<SourceCheckRow, "last_success_at">[];
  return latest.map((row) => ({ ...row, last_success_at: store.latestSuccessfulCheck(row.source) }));
}

/** Writes the ledger's latest checks into an index whose `source_checks` is empty. */
export function writeSourceChecks(index: Database.Database, store: Store): void {
  insertChecks(index, ledgerChecks(store));
}

function insertChecks(index: Database.Database, rows: SourceCheckRow[]): void {
  const insert = index.prepare(
    "INSERT INTO source_checks (source, last_received_at, last_success_at, latest_check, checked_at) VALUES (?, ?, ?, ?, ?)",
  );
  for (const row of rows)
    insert.run(row.source, row.last_received_at, row.last_success_at, row.latest_check, row.checked_at);
}

/**
 * After a run that rebuilt no index (every source failed, or a due run brought nothing new): the live index published
 * again with its data untouched and its source checks brought up to date from the ledger, so answers stop calling a
 * source's latest check successful when it was not (and the other way round once it succeeds again). The live file is
 * only ever replaced by rename, never written in place, so a copy of it is the index as served; the copy's checks and
 * `publishedAt` (the new generation's name) change, `dataRebuiltAt` and the ingestion facts do not, and it is renamed
 * over the live one as a rebuilt index is. Nothing is published when every source's latest check has the result the
 * index states, so a source failing run after run, or a due run every minute, makes a generation only when a check
 * turns (the times a check states move only with it). Run under the ingestion lock; a failure (a full disk) leaves the
 * live index as it was.
 */
export function republishSourceChecks(store: Store, dataDir: string, publishedAt: string): ChecksPublication {
  const live = join(dataDir, DATA_FILES.index);
  if (!existsSync(live)) return "no-index";
  const checks = ledgerChecks(store);
  if (sameAsServed(servedChecks(live), checks)) return "unchanged";
  removeAbandonedFiles(live, "building", "none");
  const building = writerFile(live, "building");
  try {
    copyFileSync(live, building, constants.COPYFILE_FICLONE);
    const index = new Database(building, { fileMustExist: true });
    try {
      const facts = publicationFacts(index);
      index.transaction(() => {
        index.exec("DELETE FROM source_checks");
        insertChecks(index, checks);
        const setFact = index.prepare("INSERT OR REPLACE INTO publication (key, value) VALUES (?, ?)");
        // The data is the one rebuilt then, whether or not that index stated the fact (publicationFacts).
        setFact.run("dataRebuiltAt", facts.dataRebuiltAt);
        setFact.run("publishedAt", publishedAt);
      })();
    } finally {
      index.close();
    }
    replaceAtomically(building, live);
  } finally {
    // Gone after the rename; a copy or an update that failed leaves nothing behind.
    rmSync(building, { force: true });
  }
  return "published";
}

function servedChecks(live: string): SourceCheckRow[] {
  const index = new Database(live, { readonly: true, fileMustExist: true });
  try {
    return index.prepare("SELECT * FROM source_checks ORDER BY source").all() as SourceCheckRow[];
  } finally {
    index.close();
  }
}

/** Whether every source's latest check has the result the index states. */
function sameAsServed(served: SourceCheckRow[], ledger: SourceCheckRow[]): boolean {
  const stated = (row: SourceCheckRow) => `${row.source} ${row.latest_check}`;
  return served.length === ledger.length && served.every((row, i) => stated(row) === stated(ledger[i]!));
}
