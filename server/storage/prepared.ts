import type Database from "better-sqlite3";

const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * A statement prepared once per connection and SQL text (better-sqlite3's advice: prepare once, run many). The
 * cache dies with the connection, so a newly published index gets fresh statements.
 */
export function prepared(db: Database.Database, sql: string): Database.Statement {
  let statements = cache.get(db);
  if (!statements) cache.set(db, (statements = new Map()));
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = db.prepare(sql)));
  return statement;
}
