import type Database from "better-sqlite3";

/** Whether the database has a table of this name: a store written by an older run, or a first run, may lack it. */
export function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}
