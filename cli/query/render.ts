import cliTruncate from "cli-truncate";
import stringWidth from "string-width";
import type { QueryView } from "./columns.ts";

type Data = Record<string, unknown>;

/** Spaces between two columns of a table. */
const GAP = 2;
/** A column cut to fit the terminal keeps at least this many characters (or its header's, if longer). */
const NARROWEST_CUT = 6;

const text = (value: unknown): string => (value === null || value === undefined ? "" : String(value));
/** A tab or line break inside a value would break a table's alignment and a TSV row alike; it becomes a space. */
const oneLine = (cell: string) => cell.replace(/[\t\r\n]+/g, " ");

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
 * Rows of a query as an aligned text table for a terminal `width` columns wide (no limit when undefined): when the
 * table is wider, the widest columns are narrowed first and their cells cut with an ellipsis.
 */
export function renderTable(view: QueryView, data: Data, width?: number): string {
  const { names, rows } = oneLineCellsOf(view, data);
  if (rows.length === 0) return "(no rows)\n";
  const natural = names.map((name, column) =>
    Math.max(stringWidth(name), ...rows.map((row) => stringWidth(row[column]!))),
  );
  const widths =
    width === undefined
      ? natural
      : fitted(
          natural,
          names.map((name) => Math.max(stringWidth(name), NARROWEST_CUT)),
          width,
        );
  const cell = (value: string, column: number) => {
    const cut = cliTruncate(value, widths[column]!);
    return cut + " ".repeat(widths[column]! - stringWidth(cut));
  };
  const line = (cells: string[]) => cells.map(cell).join(" ".repeat(GAP)).trimEnd();
  return `${[line(names), line(widths.map((columnWidth) => "-".repeat(columnWidth))), ...rows.map(line)].join("\n")}\n`;
}

/**
 * Column widths whose table fits `available` characters: one character at a time off the widest column that may
 * still narrow, so short columns keep their full values. A table that cannot fit even so keeps its narrowest form.
 */
function fitted(natural: number[], narrowest: number[], available: number): number[] {
  const widths = [...natural];
  let excess = widths.reduce((total, columnWidth) => total + columnWidth, GAP * (widths.length - 1)) - available;
  while (excess > 0) {
    let widest = -1;
    for (const [column, columnWidth] of widths.entries()) {
      if (columnWidth > Math.min(narrowest[column]!, natural[column]!) && (widest < 0 || columnWidth > widths[widest]!))
        widest = column;
    }
    if (widest < 0) break;
    widths[widest]! -= 1;
    excess -= 1;
  }
  return widths;
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
