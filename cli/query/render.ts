import type { QueryView } from "./columns.ts";

const text = (value: unknown): string => (value === null || value === undefined ? "" : String(value));

/** Rows of a query as an aligned text table for a terminal. */
export function renderTable(view: QueryView, data: Record<string, unknown>): string {
  const names = Object.keys(view.columns);
  const rows = view.rows(data).map((row) => names.map((name) => text(view.columns[name]!(row))));
  if (rows.length === 0) return "(no rows)\n";
  const widths = names.map((name, column) => Math.max(name.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd();
  return [line(names), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n") + "\n";
}

/** The same rows as RFC 4180 CSV. */
export function renderCsv(view: QueryView, data: Record<string, unknown>): string {
  const names = Object.keys(view.columns);
  const quote = (cell: string) => (/[",\n\r]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
  const rows = view.rows(data).map((row) => names.map((name) => quote(text(view.columns[name]!(row)))).join(","));
  return [names.join(","), ...rows].join("\r\n") + "\r\n";
}
