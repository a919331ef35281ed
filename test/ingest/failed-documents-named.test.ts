import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempDirs, runCliAsync, SAMPLES_DIR, tempDir } from "./cli-process.ts";

const FIXTURES = new URL("../fixtures/observations/", import.meta.url).pathname;

/**
 * An archive folder with two documents BLS answered with failures inside an HTTP 200 (recorded, test/fixtures) beside
 * a real value document: each failure is named with its own message in the progress line, the JSON log and the run
 * record, not as "and 1 more document failed".
 */
function archiveWithTwoFailures(): string {
  const dir = tempDir("two-failures-archive");
  mkdirSync(join(dir, "bls-api"), { recursive: true });
  copyFileSync(join(FIXTURES, "bls-api-invalid-series.json"), join(dir, "bls-api", "a-invalid-series.json"));
  copyFileSync(join(FIXTURES, "bls-api-v2-invalid-key.json"), join(dir, "bls-api", "b-invalid-key.json"));
  copyFileSync(join(SAMPLES_DIR, "bls-api", "bls-cpi-cusr0000sa0.json"), join(dir, "bls-api", "c-cpi.json"));
  return dir;
}

const INVALID_SERIES = /a-invalid-series\.json: .*Invalid Series for Series NOTASERIES1/;
const INVALID_KEY = /b-invalid-key\.json: .*The key:INVALID provided by the User is invalid/;

describe("a run with two failed documents names each with its own message", () => {
  afterAll(() => removeTempDirs());

  it("in the progress line and the run record", async () => {
    const dataDir = tempDir("two-failures-text");
    const run = await runCliAsync(["ingest", "--from-archive", archiveWithTwoFailures(), "--data-dir", dataDir]);
    expect(run.status, run.stderr).toBe(1);
    const line = run.stderr.split("\n").find((text) => text.includes("bls-api: INCOMPLETE"))!;
    expect(line).toMatch(INVALID_SERIES);
    expect(line).toMatch(INVALID_KEY);
    expect(line).not.toMatch(/more document/);
    const db = new Database(join(dataDir, "store.sqlite"), { readonly: true });
    try {
      const summary = JSON.parse(db.prepare("SELECT summary FROM runs").pluck().get() as string);
      const bls = summary.sources.find((source: { source: string }) => source.source === "bls-api");
      expect(bls.failures).toHaveLength(2);
      expect(bls.failures[0]).toMatch(INVALID_SERIES);
      expect(bls.failures[1]).toMatch(INVALID_KEY);
      const check = db.prepare("SELECT detail FROM source_checks WHERE source = 'bls-api'").pluck().get() as string;
      expect(check).toMatch(INVALID_SERIES);
      expect(check).toMatch(INVALID_KEY);
    } finally {
      db.close();
    }
  });

  it("in the JSON log", async () => {
    const dataDir = tempDir("two-failures-json");
    const run = await runCliAsync([
      "ingest",
      "--from-archive",
      archiveWithTwoFailures(),
      "--data-dir",
      dataDir,
      "--log-format",
      "json",
    ]);
    expect(run.status, run.stderr).toBe(1);
    const lines = run.stderr
      .trim()
      .split("\n")
      .map((text) => JSON.parse(text) as Record<string, unknown>);
    const incomplete = lines.find((line) => line.msg === "source incomplete" && line.source === "bls-api")!;
    expect(incomplete.failures).toEqual([expect.stringMatching(INVALID_SERIES), expect.stringMatching(INVALID_KEY)]);
    expect(incomplete.detail).toMatch(INVALID_KEY);
  });
});
