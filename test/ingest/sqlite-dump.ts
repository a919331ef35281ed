import Database from "better-sqlite3";

export type TableDump = Record<string, Record<string, unknown>[]>;

/** Every table of a SQLite file with all its rows, in a stable order (rows sorted by their JSON text). */
export function dumpTables(
  path: string,
  mapRow: (table: string, row: Record<string, unknown>) => Record<string, unknown> = (_, row) => row,
): TableDump {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
    const dump: TableDump = {};
    for (const table of tables) {
      const rows = (db.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[]).map((row) =>
        mapRow(table, row),
      );
      dump[table] = rows
        .map((row) => [JSON.stringify(row), row] as const)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([, row]) => row);
    }
    return dump;
  } finally {
    db.close();
  }
}

/** Rows per table. */
export function rowCounts(dump: TableDump): Record<string, number> {
  return Object.fromEntries(Object.entries(dump).map(([table, rows]) => [table, rows.length]));
}

const INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g;
const RUN_ID = /run_\d{8}T\d{6}_[0-9a-f]{6}/g;

/**
 * Replaces every ISO instant (as `toISOString` writes it) that falls inside [from, to] by a placeholder, in every
 * string value and inside JSON text: the times a run stamps from its clock, while publisher times stay.
 */
export function maskRunTimes(
  from: number,
  to: number,
): (table: string, row: Record<string, unknown>) => Record<string, unknown> {
  // A run's id is its own identity, as its times are: two replays record the same vintages under different runs.
  return (_table, row) =>
    Object.fromEntries(
      Object.entries(row).map(([column, value]) => [
        column,
        typeof value === "string"
          ? value
              .replace(INSTANT, (instant) =>
                Date.parse(instant) >= from && Date.parse(instant) <= to ? "<run time>" : instant,
              )
              .replace(RUN_ID, "<run id>")
          : value,
      ]),
    );
}
