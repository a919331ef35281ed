import stringWidth from "string-width";
import wrapAnsi from "wrap-ansi";

/**
 * Aligned tables for a terminal of a given width, fitted by choosing and wrapping columns, never by cutting a value:
 * an identifier, a time or a number is shown whole or its column is left out; only text (a title, a name) wraps.
 */

interface TableColumn {
  name: string;
  /** Text that may wrap onto more lines (titles, names); any other column is shown whole or not at all. */
  wraps?: boolean;
  /** How narrow a wrapping column may get, if not 20 (never below its longest word, nor its header). */
  narrowest?: number;
}

export interface Table {
  columns: TableColumn[];
  /** Per row, its cells in the order of `columns`. */
  rows: string[][];
  /** Column names in the order they are kept when not all fit (the first is always shown); absent ones go last. */
  keep: string[];
}

interface FittedTable {
  /** Header, rule and rows, each line ending in a line break. */
  text: string;
  /** Columns with values that had no room (columns with no value at all are not shown and not named). */
  leftOut: string[];
}

/** Spaces between two columns. */
const GAP = 2;
/** A wrapping column is not narrowed below this many characters (or its widest value, if shorter): a title stays readable. */
const READABLE = 20;
/** Used when stdout is no terminal and COLUMNS says nothing. */
const DEFAULT_WIDTH = 80;

/** The width to fit: COLUMNS when it is a positive integer, else the terminal's, else 80. */
export function terminalWidth(env: NodeJS.ProcessEnv, stdout: { isTTY?: boolean; columns?: number }): number {
  const fromEnv = /^\d+$/.test(env.COLUMNS ?? "") ? Number(env.COLUMNS) : 0;
  if (fromEnv > 0) return fromEnv;
  return stdout.isTTY && stdout.columns ? stdout.columns : DEFAULT_WIDTH;
}

/** A tab or line break inside a value would break the alignment; it becomes a space. */
export const oneLine = (cell: string) => cell.replace(/[\t\r\n]+/g, " ");

/** The line under a table naming the columns left out (wrapped to the width too), or null when none was. */
export function leftOutNote(fitted: FittedTable, width: number): string | null {
  if (fitted.leftOut.length === 0) return null;
  return wrapAnsi(`left out to fit ${width} columns: ${fitted.leftOut.join(", ")} (COLUMNS=N sets the width)`, width);
}

export function renderFittedTable(table: Table, width: number): FittedTable {
  const rows = table.rows.map((row) => row.map(oneLine));
  const filled = table.columns.map((_, column) => rows.some((row) => row[column] !== ""));
  const shown = table.columns.map((_, column) => column).filter((column) => filled[column]);
  const natural = table.columns.map((column, index) =>
    Math.max(stringWidth(column.name), ...rows.map((row) => stringWidth(row[index]!))),
  );
  const longestWord = (column: number) =>
    Math.max(0, ...rows.flatMap((row) => row[column]!.split(" ").map((word) => stringWidth(word))));
  const narrowest = table.columns.map((column, index) =>
    column.wraps
      ? Math.min(natural[index]!, Math.max(column.narrowest ?? READABLE, longestWord(index), stringWidth(column.name)))
      : natural[index]!,
  );
  const kept = chosen(table, shown, narrowest, width);
  const widths = widened(table.columns, kept, natural, narrowest, width);
  const lines = (cells: string[]): string[] => {
    const wrapped = kept.map((column) =>
      table.columns[column]!.wraps
        ? wrapAnsi(cells[column]!, widths[column]!, { hard: true }).split("\n")
        : [cells[column]!],
    );
    const height = Math.max(...wrapped.map((cell) => cell.length));
    return Array.from({ length: height }, (_, line) =>
      wrapped
        .map((cell, at) => {
          const value = cell[line] ?? "";
          return value + " ".repeat(Math.max(0, widths[kept[at]!]! - stringWidth(value)));
        })
        .join(" ".repeat(GAP))
        .trimEnd(),
    );
  };
  const header = table.columns.map((column) => column.name);
  const rule = table.columns.map((_, column) => "-".repeat(widths[column] ?? 0));
  const text = [...lines(header), ...lines(rule), ...rows.flatMap(lines)].map((line) => `${line}\n`).join("");
  return {
    text: rows.length === 0 ? "(no rows)\n" : text,
    leftOut: shown.filter((column) => !kept.includes(column)).map((column) => table.columns[column]!.name),
  };
}

/**
 * The columns to show, in table order: taken in the order of `keep`, each if it fits at its narrowest beside those
 * taken before it, else left out (a wide column left out can leave room for narrower ones after it).
 */
function chosen(table: Table, shown: number[], narrowest: number[], width: number): number[] {
  const rank = (column: number) => {
    const at = table.keep.indexOf(table.columns[column]!.name);
    return at < 0 ? table.keep.length + column : at;
  };
  const kept: number[] = [];
  let used = -GAP;
  for (const column of [...shown].sort((a, b) => rank(a) - rank(b))) {
    if (kept.length > 0 && used + GAP + narrowest[column]! > width) continue;
    kept.push(column);
    used += GAP + narrowest[column]!;
  }
  return kept.sort((a, b) => a - b);
}

/** Widths of the kept columns: whole values, and the room left shared among the wrapping columns, one character at a time. */
function widened(
  columns: TableColumn[],
  kept: number[],
  natural: number[],
  narrowest: number[],
  width: number,
): number[] {
  const widths = columns.map((_, column) => (kept.includes(column) ? narrowest[column]! : 0));
  let room = width - kept.reduce((total, column) => total + widths[column]!, GAP * (kept.length - 1));
  const growing = () => kept.filter((column) => widths[column]! < natural[column]!);
  for (let open = growing(); room > 0 && open.length > 0; open = growing()) {
    for (const column of open) {
      if (room === 0) break;
      widths[column]! += 1;
      room -= 1;
    }
  }
  return widths;
}
