import { describe, test } from "vitest";
import { runCell } from "../support/weather-fault-cell.ts";
import { cells, expectedOutcome } from "../support/weather-fault-matrix.ts";

/**
 * The weather fault matrix (faults × cache states × views × audiences), each cell named and checked against what the
 * contract says. One toEqual per cell, so a failing cell shows every field it got wrong at once. The cells are
 * independent (each has its own service, stand-in and clock), so they run concurrently; the service's weather
 * time-out is 1 s (test/support/service.ts), which bounds the hanging and dribbling cells.
 */
describe.concurrent("weather fault matrix", () => {
  // "%s" with the name first: "$name" would cut the name at 40 characters in the report.
  test.for(cells().map((cell) => [cell.name, cell] as const))("%s", async ([, cell], { expect }) => {
    const expected = expectedOutcome(cell);
    // freshFor reads "N s" where the cell stores or confirms a copy: probe exactly N.
    const probe = expected.freshFor === null ? null : Number.parseInt(expected.freshFor, 10);
    expect(await runCell(cell, probe)).toEqual(expected);
  });
});
