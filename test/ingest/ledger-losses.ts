import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";

/**
 * What an ingestion run must never take away: the vintages, events and announcements of the store, and the
 * observations, events and news the published index serves. A view is taken before a run and compared with one
 * taken after; a later run may add and revise (a new vintage, a rescheduled event), but not lose or cancel.
 */

export interface LedgerView {
  /** Every vintage, whole (series, period, sequence, value, status): vintages are append-only. */
  vintages: Set<string>;
  /** Status by event id. */
  events: Map<string, string>;
  /** State by announcement (source and item id). */
  announcements: Map<string, string>;
}

export interface IndexView {
  /** Served series and periods. */
  observations: Set<string>;
  /** Status by event id. */
  events: Map<string, string>;
  /** State by news id. */
  news: Map<string, string>;
}

/** Read-write on purpose: after a killed run the store may have a write-ahead log to recover, as its next opener would. */
function withDatabase<T>(path: string, read: (db: Database.Database) => T): T {
  const db = new Database(path, { fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

type Row = Record<string, string | number | null>;

export function storeView(dataDir: string): LedgerView {
  return withDatabase(join(dataDir, "store.sqlite"), (db) => ({
    vintages: new Set(
      (
        db
          .prepare("SELECT series_slug, reference_period, sequence, value, publication_status FROM vintages")
          .all() as Row[]
      ).map((row) =>
        JSON.stringify([row.series_slug, row.reference_period, row.sequence, row.value, row.publication_status]),
      ),
    ),
    events: new Map(
      (db.prepare("SELECT id, status FROM events").all() as Row[]).map((row) => [String(row.id), String(row.status)]),
    ),
    announcements: new Map(
      (db.prepare("SELECT source, source_item_id, state FROM announcements").all() as Row[]).map((row) => [
        `${row.source}/${row.source_item_id}`,
        String(row.state),
      ]),
    ),
  }));
}

/** Null when no index has been published yet. */
export function indexView(dataDir: string): IndexView | null {
  const path = join(dataDir, "index.sqlite");
  if (!existsSync(path)) return null;
  return withDatabase(path, (db) => ({
    observations: new Set(
      (db.prepare("SELECT series_slug, reference_period FROM observations").all() as Row[]).map(
        (row) => `${row.series_slug}/${row.reference_period}`,
      ),
    ),
    events: new Map(
      (db.prepare("SELECT id, status FROM events").all() as Row[]).map((row) => [String(row.id), String(row.status)]),
    ),
    news: new Map(
      (db.prepare("SELECT id, state FROM news").all() as Row[]).map((row) => [String(row.id), String(row.state)]),
    ),
  }));
}

/** Statuses that, reached by a run, take something away from what was there. */
const TAKEN_AWAY = new Set(["CANCELLED", "WITHDRAWN"]);

function lostOrTakenAway(kind: string, before: Map<string, string>, after: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [id, status] of before) {
    const now = after.get(id);
    if (now === undefined) found.push(`${kind} ${id} lost`);
    else if (TAKEN_AWAY.has(now) && !TAKEN_AWAY.has(status)) found.push(`${kind} ${id} ${status} -> ${now}`);
  }
  return found;
}

const missing = (kind: string, before: Set<string>, after: Set<string>) =>
  [...before].filter((key) => !after.has(key)).map((key) => `${kind} ${key} lost`);

/** Everything of `before` that `after` lost or cancelled; empty when nothing was. */
export function storeLosses(before: LedgerView, after: LedgerView): string[] {
  return [
    ...missing("vintage", before.vintages, after.vintages),
    ...lostOrTakenAway("event", before.events, after.events),
    ...lostOrTakenAway("announcement", before.announcements, after.announcements),
  ];
}

export function indexLosses(before: IndexView | null, after: IndexView | null): string[] {
  if (before === null) return [];
  if (after === null) return ["the index is gone"];
  return [
    ...missing("observation", before.observations, after.observations),
    ...lostOrTakenAway("event", before.events, after.events),
    ...lostOrTakenAway("news", before.news, after.news),
  ];
}
