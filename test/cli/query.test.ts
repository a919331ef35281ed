import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/run-cli.ts";

const BIN = fileURLToPath(new URL("../../cli/bin.js", import.meta.url));
const hasScript = spawnSync("script", ["--version"]).status === 0;

/** Runs the executable with a pseudo-terminal `columns` wide as its stdout (util-linux `script`); output as seen there. */
function onTerminal(columns: number, args: string[]) {
  const command = `stty cols ${columns} rows 50; exec '${process.execPath}' '${BIN}' ${args.map((arg) => `'${arg}'`).join(" ")}`;
  const result = spawnSync("script", ["-qec", command, "/dev/null"], {
    encoding: "utf8",
    timeout: 30_000,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
  });
  return { status: result.status, output: result.stdout.replaceAll("\r\n", "\n") };
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

  it.skipIf(!hasScript)(
    "prints a table cut to the terminal's width on a terminal, with the line saying more rows exist",
    () => {
      const result = onTerminal(72, [
        "query",
        "events",
        "--from",
        "2025-10-01",
        "--to",
        "2025-12-31",
        "--limit",
        "2",
        "--data-dir",
        dataDir,
      ]);
      expect(result.status, result.output).toBe(0);
      const lines = result.output.trimEnd().split("\n");
      expect(lines).toHaveLength(5);
      expect(lines[0]).toMatch(/^date\s+time\s+local\s+release\s+period\s+status\s+state\s+title$/);
      expect(lines[1]).toMatch(/^-+( +-+){7}$/);
      for (const line of lines.slice(0, 4)) expect(line.length, line).toBeLessThanOrEqual(72);
      expect(lines[2]).toContain("…");
      expect(lines[4]).toMatch(/^showing 2, more exist; --limit N or --cursor \S+ for more$/);
    },
  );

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

  it("answers a missing corpus with SERVICE_UNAVAILABLE and exit code 1", () => {
    const empty = mkdtempSync(join(tmpdir(), "query-empty-"));
    const result = runCli(["query", "releases", "--data-dir", empty]);
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(/^SERVICE_UNAVAILABLE: /);
    rmSync(empty, { recursive: true, force: true });
  });
});
