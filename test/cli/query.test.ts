import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/run-cli.ts";

describe("service query over the sample archive", () => {
  let dataDir: string;
  const query = (...args: string[]) => runCli(["query", ...args, "--data-dir", dataDir]);

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), "query-"));
    const ingest = runCli(["ingest", "--from-archive", "data/samples", "--data-dir", dataDir]);
    expect(ingest.status, ingest.stderr).toBe(0);
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("prints events as a table with the API's parameter names and rules", () => {
    const result = query("events", "--from", "2025-10-20", "--to", "2025-10-25", "--tz", "America/New_York", "--release", "bls-consumer-price-index");
    expect(result.status, result.stderr).toBe(0);
    const [header, rule, row] = result.stdout.trimEnd().split("\n");
    expect(header).toMatch(/^date\s+time\s+local\s+release/);
    expect(rule).toMatch(/^-+/);
    expect(row).toMatch(/^2025-10-24\s+2025-10-24T12:30:00.000Z\s+2025-10-24 08:30\s+bls-consumer-price-index/);
  });

  it("prints the whole { data, meta } answer with --json, identical in shape to the route's", () => {
    const result = query("observations", "--series", "us-cpi-all-items-12-month-change", "--from", "2023-01", "--to", "2023-03", "--json");
    expect(result.status, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(answer.data.observations.map((row: { referencePeriod: string; value: string }) => [row.referencePeriod, row.value]))
      .toEqual([["2023-01", "6.4"], ["2023-02", "6.0"], ["2023-03", "5.0"]]);
    expect(answer.meta.lastIngestedAt).toEqual(expect.any(String));
  });

  it("prints rows as CSV with --csv", () => {
    const result = query("series", "--country", "us", "--csv");
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split("\r\n");
    expect(lines[0]).toBe("slug,family,where,frequency,unit,upstream");
    expect(lines.slice(1).every((line) => line.split(",")[2] === "US")).toBe(true);
  });

  it("answers bad values with the API's error code, one line, exit code 2", () => {
    const range = query("events", "--from", "2025-10-01T00:00");
    expect(range.status).toBe(2);
    expect(range.stderr.trim()).toMatch(/^ECONOMICS_RANGE_INVALID: /);
    const region = query("events", "--region", "Atlantis");
    expect(region.status).toBe(2);
    expect(region.stderr.trim()).toMatch(/^VALIDATION_FAILED: /);
  });

  it("answers a missing corpus with SERVICE_UNAVAILABLE and exit code 1", () => {
    const empty = mkdtempSync(join(tmpdir(), "query-empty-"));
    const result = runCli(["query", "releases", "--data-dir", empty]);
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(/^SERVICE_UNAVAILABLE: /);
    rmSync(empty, { recursive: true, force: true });
  });
});
