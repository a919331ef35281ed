import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTable } from "../support/parse-table.ts";
import { runCli } from "../support/run-cli.ts";

const BIN = fileURLToPath(new URL("../../cli/bin.js", import.meta.url));
const hasScript = spawnSync("script", ["--version"]).status === 0;

/** Runs the executable with a pseudo-terminal `columns` wide as its stdout (util-linux `script`); output as seen there. */
function onTerminal(columns: number, args: string[], env: Record<string, string> = {}) {
  const command = `stty cols ${columns} rows 50; exec '${process.execPath}' '${BIN}' ${args.map((arg) => `'${arg}'`).join(" ")}`;
  const result = spawnSync("script", ["-qec", command, "/dev/null"], {
    encoding: "utf8",
    timeout: 30_000,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
  });
  return { status: result.status, output: result.stdout.replaceAll("\r\n", "\n") };
}

/** Tab-separated rows as the CLI prints them off a terminal, each by column name. */
function tsvRows(stdout: string): Record<string, string>[] {
  const [header, ...lines] = stdout.replace(/\n$/, "").split("\n");
  const names = header!.split("\t");
  return lines.map((line) => Object.fromEntries(line.split("\t").map((cell, at) => [names[at]!, cell])));
}

describe("service query over the sample archive", () => {
  let dataDir: string;
  const query = (...args: string[]) => runCli(["query", ...args, "--data-dir", dataDir]);

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), "query-"));
    const ingest = runCli(["ingest", "--from-archive", "data/samples", "--data-dir", dataDir]);
    expect(ingest.status, ingest.stderr).toBe(0);
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("prints tab-separated rows when stdout is not a terminal, with the API's parameter names and rules", () => {
    const result = query(
      "events",
      "--from",
      "2025-10-20",
      "--to",
      "2025-10-25",
      "--tz",
      "America/New_York",
      "--release",
      "bls-consumer-price-index",
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe("date\ttime\tlocal\trelease\tperiod\tstatus\tstate\ttitle");
    expect(lines[1]).toMatch(
      /^2025-10-24\t2025-10-24T12:30:00.000Z\t2025-10-24 08:30\tbls-consumer-price-index\t[^\t]*\tSCHEDULED\t[A-Z_]+\tConsumer Price Index$/,
    );
    expect(lines.slice(2)).toEqual([""]);
  });

  it("says on stderr when more rows exist and how to get them, and the cursor it names gets the next page", () => {
    const first = query("events", "--from", "2025-10-01", "--to", "2025-12-31", "--limit", "2");
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout.trimEnd().split("\n")).toHaveLength(3);
    const [, cursor] = /^showing 2, more exist; --limit N or --cursor (\S+) for more\n$/.exec(first.stderr) ?? [];
    expect(cursor, first.stderr).toBeDefined();
    const next = query("events", "--from", "2025-10-01", "--to", "2025-12-31", "--limit", "2", "--cursor", cursor!);
    expect(next.status, next.stderr).toBe(0);
    const firstDates = first.stdout
      .split("\n")
      .slice(1, 3)
      .map((line) => line.split("\t")[1]);
    const nextDates = next.stdout
      .split("\n")
      .slice(1, 3)
      .map((line) => line.split("\t")[1]);
    expect(nextDates[0]! >= firstDates[1]!).toBe(true);
    expect(nextDates).not.toEqual(firstDates);

    const series = query("series", "--limit", "3");
    expect(series.stderr).toMatch(/^showing 3 of \d+; --limit N for more\n$/);
  });

  /**
   * The table `query <args>` prints on a terminal `width` columns wide, checked against the same rows off a terminal:
   * every line fits, the columns a user reads and copies are there, every value shown is whole (a title wrapped onto
   * lines joined back with a space), and the columns left out are named.
   */
  function checkFitted(args: string[], width: number, needed: string[], whole: Record<string, string>[]): string {
    const what = `${args.join(" ")} at ${width}`;
    const result = onTerminal(width, ["query", ...args, "--data-dir", dataDir]);
    expect(result.status, result.output).toBe(0);
    for (const line of result.output.split("\n")) expect(line.length, `${what}: ${line}`).toBeLessThanOrEqual(width);
    const table = parseTable(result.output);
    expect(table.columns, what).toEqual(expect.arrayContaining(needed));
    expect(table.rows, what).toEqual(
      whole.map((row) => Object.fromEntries(table.columns.map((column) => [column, row[column]]))),
    );
    const leftOut = Object.keys(whole[0]!).filter(
      (column) => !table.columns.includes(column) && whole.some((row) => row[column] !== ""),
    );
    expect(leftOut.length, `${what}: some column is left out`).toBeGreaterThan(0);
    expect(table.notes.join(" "), what).toContain(
      `left out to fit ${width} columns: ${leftOut.join(", ")} (COLUMNS=N sets the width)`,
    );
    return result.output;
  }

  it.skipIf(!hasScript)("fits events to 80 and 100 columns, the time and title whole; COLUMNS sets the width", () => {
    const args = ["events", "--from", "2025-09-01", "--to", "2025-12-31", "--limit", "12", "--tz", "America/New_York"];
    const whole = tsvRows(query(...args).stdout);
    expect(whole.some((row) => row.title!.length > 40)).toBe(true);
    checkFitted(args, 80, ["time", "title"], whole);
    const wide = checkFitted(args, 100, ["time", "title", "local"], whole);
    expect(parseTable(wide).notes.at(-1)).toMatch(/^showing 12, more exist; --limit N or --cursor \S+ for more$/);
    expect(onTerminal(80, ["query", ...args, "--data-dir", dataDir], { COLUMNS: "100" }).output).toBe(wide);
  });

  it.skipIf(!hasScript)("fits the calendar to 80 and 100 columns, the time and title whole", () => {
    const args = ["calendar", "--from", "2025-09-01", "--to", "2025-12-31", "--limit", "12"];
    const whole = tsvRows(query(...args).stdout);
    for (const width of [80, 100]) checkFitted(args, width, ["time", "title"], whole);
  });

  it.skipIf(!hasScript)("fits series to 80 and 100 columns, every slug whole", () => {
    const whole = tsvRows(query("series").stdout);
    for (const width of [80, 100]) checkFitted(["series"], width, ["slug"], whole);
  });

  it("prints the whole { data, meta } answer with --json, identical in shape to the route's", () => {
    const result = query(
      "observations",
      "--series",
      "us-cpi-all-items-12-month-change",
      "--from",
      "2023-01",
      "--to",
      "2023-03",
      "--json",
    );
    expect(result.status, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(
      answer.data.observations.map((row: { referencePeriod: string; value: string }) => [
        row.referencePeriod,
        row.value,
      ]),
    ).toEqual([
      ["2023-01", "6.4"],
      ["2023-02", "6.0"],
      ["2023-03", "5.0"],
    ]);
    expect(answer.meta.lastIngestedAt).toEqual(expect.any(String));
  });

  it("prints rows as CSV with --csv", () => {
    const result = query("series", "--country", "us", "--csv");
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split("\r\n");
    expect(lines[0]).toBe("slug,family,where,frequency,unit,upstream");
    expect(lines.slice(1).every((line) => line.split(",")[2] === "US")).toBe(true);
    expect(result.stderr).toBe("");

    // As with tab-separated rows: the CSV on stdout, the line saying how to get more rows on stderr.
    const first = query("series", "--limit", "3", "--csv");
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout.trimEnd().split("\r\n")).toHaveLength(4);
    expect(first.stderr).toMatch(/^showing 3 of \d+; --limit N for more\n$/);
  });

  it("answers bad values with the API's error code on one line, the usage hint and exit code 2", () => {
    for (const [args, code] of [
      [["events", "--from", "2025-10-01T00:00"], "ECONOMICS_RANGE_INVALID"],
      [["events", "--region", "Atlantis"], "VALIDATION_FAILED"],
      [["events", "--limit", "many"], "VALIDATION_FAILED"],
    ] as const) {
      const result = query(...args);
      expect(result.status, args.join(" ")).toBe(2);
      const lines = result.stderr.trimEnd().split("\n");
      expect(lines[0], args.join(" ")).toMatch(new RegExp(`^${code}: `));
      expect(lines.slice(1)).toEqual(["(run with --help for usage)"]);
      expect(result.stdout).toBe("");
    }
  });

  it("answers an unknown series as not found: one line, exit code 1", () => {
    const result = query("observations", "--series", "no-such-series");
    expect(result.status).toBe(1);
    expect(result.stderr).toBe("NOT_FOUND: No series has this slug.\n");
  });

  it("answers a missing corpus with SERVICE_UNAVAILABLE naming the data directory looked in, and exit code 1", () => {
    const empty = mkdtempSync(join(tmpdir(), "query-empty-"));
    const result = runCli(["query", "releases", "--data-dir", empty]);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `SERVICE_UNAVAILABLE: no registry.json or index.sqlite in data directory ${empty}: write them with \`service ingest --data-dir ${empty}\`\n`,
    );
    rmSync(empty, { recursive: true, force: true });
  });

  it("takes kebab-case flags, the API's spellings kept as hidden aliases", () => {
    const help = runCli(["query", "releases", "--help"]).stdout;
    expect(help).toContain("--per-series <value>");
    expect(help).not.toContain("--perSeries");
    // Each release carries its series' newest periods, one unless told (--per-series).
    const periods = (flag: string) =>
      JSON.parse(query("releases", "--series", "us-unemployment-rate", flag, "2", "--json").stdout).data.releases[0]
        .periods.length;
    expect(periods("--per-series")).toBe(2);
    expect(periods("--perSeries")).toBe(2);
  });

  it("takes --timezone as a switch, as its help says", () => {
    const events = (...flags: string[]) =>
      tsvRows(query("events", "--from", "2025-10-20", "--to", "2025-10-25", ...flags).stdout);
    expect(events().map((row) => row.local)).toEqual([""]);
    const local = events("--timezone");
    expect(local.map((row) => row.local)).toEqual(["2025-10-24 12:30"]);
    // A value after it, as the API's parameter and the flag's older form take, is accepted and not read.
    expect(events("--timezone", "yes")).toEqual(local);
  });
});
