import type Database from "better-sqlite3";

const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** A statement prepared once per connection and SQL text; the cache dies with the connection. */
export function prepared(db: Database.Database, sql: string): Database.Statement {
  const statements = cache.get(db) ?? cache.set(db, new Map()).get(db)!;
  return statements.get(sql) ?? statements.set(sql, db.prepare(sql)).get(sql)!;
}
