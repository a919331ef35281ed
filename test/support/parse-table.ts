import { expect } from "vitest";

export interface ParsedTable {
  columns: string[];
  /** Each row's cells by column name, a wrapped cell's lines joined with a space. */
  rows: Record<string, string>[];
  /** The lines after the rows (what was left out, how to get more rows). */
  notes: string[];
}

/**
 * Reads back an aligned table as the CLI prints it on a terminal (header, rule, rows, then notes), checking its
 * alignment on the way: the rule's dashes start where the header's names do, and every cell of every line starts
 * there too, after at least two spaces. A row whose first cell is blank continues the row above (wrapped cells). The
 * notes are the lines that start as the CLI's notes do.
 */
export function parseTable(text: string): ParsedTable {
  const lines = text.replace(/\n$/, "").split("\n");
  const [header, rule, ...rest] = lines;
  const starts = [...header!.matchAll(/\S+/g)].map((match) => match.index);
  const columns = [...header!.matchAll(/\S+/g)].map((match) => match[0]);
  expect(
    [...rule!.matchAll(/-+/g)].map((match) => match.index),
    `rule under ${header}`,
  ).toEqual(starts);
  const cellsOf = (line: string) =>
    starts.map((start, at) => {
      if (start > 0 && line.length > start)
        expect(line.slice(start - 2, start), `gap before ${columns[at]}: ${line}`).toBe("  ");
      return line.slice(start, starts[at + 1] ?? line.length).trim();
    });
  const rows: Record<string, string>[] = [];
  let at = 0;
  for (; at < rest.length; at += 1) {
    const line = rest[at]!;
    if (/^(left out to fit|showing) /.test(line)) break;
    const cells = cellsOf(line);
    if (cells[0] === "" && rows.length > 0) {
      const row = rows.at(-1)!;
      for (const [index, cell] of cells.entries())
        if (cell !== "") row[columns[index]!] = [row[columns[index]!], cell].filter(Boolean).join(" ");
    } else rows.push(Object.fromEntries(columns.map((column, index) => [column, cells[index]!])));
  }
  return { columns, rows, notes: rest.slice(at) };
}
