import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/run-cli.ts";

const dataDir = () => mkdtempSync(join(tmpdir(), "query-unreadable-"));

/** A damaged file is named with why it could not be read (exit 1, a failure, as docs/cli.md says); a missing one is "no data yet". */
describe("service query on a data directory whose files cannot be read", () => {
  it("names a registry that is not JSON", () => {
    const dir = dataDir();
    writeFileSync(join(dir, "registry.json"), "{");
    const result = runCli(["query", "series", "--data-dir", dir]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: registry ${join(dir, "registry.json")} could not be read \\(.+\\): publish it again with \`service registry\`\\n$`,
      ),
    );
  });

  it.each([
    '{"families":[]}',
    "[]",
    "null",
  ])("names a registry of the wrong shape (%s) and what is wrong with it", (text) => {
    const dir = dataDir();
    writeFileSync(join(dir, "registry.json"), text);
    const result = runCli(["query", "series", "--data-dir", dir]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: registry ${join(dir, "registry.json")} could not be read \\(registry is invalid: / must .+\\): publish it again with \`service registry\`\\n$`,
      ),
    );
  });

  it("names an index that is not a database", () => {
    const dir = dataDir();
    expect(runCli(["registry", "--data-dir", dir]).status).toBe(0);
    writeFileSync(
      join(dir, "index.sqlite"),
      "not a database, but long enough to be taken for a damaged one by SQLite: ".repeat(20),
    );
    const result = runCli(["query", "events", "--data-dir", dir]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `error: index ${join(dir, "index.sqlite")} could not be read (file is not a database): publish it again with \`service ingest\`\n`,
    );
  });

  it("answers a data directory with no index yet with the API's SERVICE_UNAVAILABLE, naming the directory and the file", () => {
    const dir = dataDir();
    expect(runCli(["registry", "--data-dir", dir]).status).toBe(0);
    const result = runCli(["query", "events", "--data-dir", dir]);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `SERVICE_UNAVAILABLE: no index.sqlite in data directory ${dir}: write it with \`service ingest --data-dir ${dir}\`\n`,
    );
  });
});
