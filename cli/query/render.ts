import { leftOutNote, oneLine, renderFittedTable } from "../terminal-table.ts";
import type { QueryView } from "./columns.ts";

type Data = Record<string, unknown>;

const text = (value: unknown): string => (value === null || value === undefined ? "" : String(value));

/** The view's column names and, per row, its cells as text. */
function cellsOf(view: QueryView, data: Data): { names: string[]; rows: string[][] } {
  const names = Object.keys(view.columns);
  return { names, rows: view.rows(data).map((row) => names.map((name) => text(view.columns[name]!(row)))) };
}

function oneLineCellsOf(view: QueryView, data: Data): { names: string[]; rows: string[][] } {
  const { names, rows } = cellsOf(view, data);
  return { names, rows: rows.map((row) => row.map(oneLine)) };
}

/**
 * Rows of a query as an aligned text table fitted to a terminal `width` columns wide (terminal-table.ts), followed by
 * a line naming the columns left out to fit, if any.
 */
export function renderTable(view: QueryView, data: Data, width: number): string {
  const { names, rows } = cellsOf(view, data);
  const columns = names.map((name) => ({ name, wraps: view.wraps.includes(name) }));
  const fitted = renderFittedTable({ columns, rows, keep: view.keep }, width);
  const note = leftOutNote(fitted, width);
  return fitted.text + (note ? `${note}\n` : "");
}

/** The same rows as tab-separated values for programs reading a pipe: a header row, every value whole, nothing else. */
export function renderTsv(view: QueryView, data: Data): string {
  const { names, rows } = oneLineCellsOf(view, data);
  return `${[names, ...rows].map((cells) => cells.join("\t")).join("\n")}\n`;
}

/** The same rows as RFC 4180 CSV. */
export function renderCsv(view: QueryView, data: Data): string {
  const { names, rows } = cellsOf(view, data);
  const quote = (cell: string) => (/[",\n\r]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
  return `${[names.join(","), ...rows.map((row) => row.map(quote).join(","))].join("\r\n")}\r\n`;
}
