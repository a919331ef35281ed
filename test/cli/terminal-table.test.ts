import fc from "fast-check";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { renderFittedTable, type Table, terminalWidth } from "../../cli/terminal-table.ts";

const identifier = fc.stringMatching(/^[a-z0-9][a-z0-9:.-]{0,30}$/);
const words = fc
  .array(fc.stringMatching(/^[A-Za-z(),–é]{1,12}$/), { minLength: 0, maxLength: 12 })
  .map((list) => list.join(" "));

/** A table of identifier columns and text columns (at random places, kept in a random order) with its rows. */
const tables = fc
  .array(fc.boolean(), { minLength: 1, maxLength: 6 })
  .chain((wraps) =>
    fc.record({
      wraps: fc.constant(wraps),
      rows: fc.array(fc.tuple(...wraps.map((text) => (text ? words : identifier))), { maxLength: 6 }),
      keep: fc.shuffledSubarray(
        wraps.map((_, column) => `c${column}`),
        { minLength: 0 },
      ),
    }),
  )
  .map(
    ({ wraps, rows, keep }): Table => ({
      columns: wraps.map((text, column) => ({ name: `c${column}`, wraps: text })),
      rows,
      keep,
    }),
  );

describe("tables fitted to a terminal", () => {
  it("never cut an identifier, wrap only text, fit the width unless a single value is wider, and name what they leave out", () => {
    fc.assert(
      fc.property(tables, fc.integer({ min: 20, max: 160 }), (table, width) => {
        const { text, leftOut } = renderFittedTable(table, width);
        if (table.rows.length === 0) {
          expect(text).toBe("(no rows)\n");
          return;
        }
        const lines = text.trimEnd().split("\n");
        const header = lines[0]!.split(/ {2,}/);
        const shown = table.columns.filter((column) => header.includes(column.name));
        const filled = table.columns.filter((_, at) => table.rows.some((row) => row[at] !== ""));
        // Every column with a value is shown or named, and only those.
        expect([...shown.map((column) => column.name), ...leftOut].sort()).toEqual(
          filled.map((column) => column.name).sort(),
        );
        const body = lines.slice(2).join("\n");
        for (const column of shown) {
          const at = table.columns.indexOf(column);
          for (const row of table.rows) {
            if (!column.wraps) expect(body).toContain(row[at]);
            // Every word of a wrapped text is there, whole unless it is wider than the whole terminal.
            else for (const word of row[at]!.split(" ").filter(Boolean)) expect(body).toContain(word);
          }
        }
        const widest = Math.max(
          ...shown.map((column) => stringWidth(column.name)),
          ...table.rows.flat().map((cell) => stringWidth(cell)),
        );
        if (shown.length > 1 || widest <= width)
          for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(width);
      }),
    );
  });

  it("leave out a column with no value at all without naming it", () => {
    const table: Table = {
      columns: [{ name: "id" }, { name: "revoked" }, { name: "name", wraps: true }],
      rows: [
        ["a1", "", "first"],
        ["b2", "", "second"],
      ],
      keep: [],
    };
    expect(renderFittedTable(table, 80)).toEqual({
      text: ["id  name", "--  ------", "a1  first", "b2  second", ""].join("\n"),
      leftOut: [],
    });
  });

  it("are as wide as COLUMNS says, else the terminal, else 80", () => {
    expect(terminalWidth({ COLUMNS: "100" }, { isTTY: true, columns: 72 })).toBe(100);
    expect(terminalWidth({}, { isTTY: true, columns: 72 })).toBe(72);
    expect(terminalWidth({}, { isTTY: false })).toBe(80);
    for (const COLUMNS of ["", "0", "wide", "-5", "12.5"])
      expect(terminalWidth({ COLUMNS }, { isTTY: false }), COLUMNS).toBe(80);
  });
});
