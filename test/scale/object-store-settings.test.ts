import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli as runCliIn } from "../support/run-cli.ts";

// A data directory of its own, so a check that failed to refuse would write nothing where the tests run.
const dataDir = mkdtempSync(join(tmpdir(), "object-store-settings-"));
const runCli = (args: string[], env: Record<string, string> = {}) =>
  runCliIn(args, { SERVICE_DATA_DIR: dataDir, ...env });

describe("object-storage settings of ingest and serve", () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("names --publish-to and --index-from in the commands' help", () => {
    expect(runCli(["ingest", "--help"]).stdout).toMatch(/--publish-to <url>.*s3:\/\/bucket\/prefix/s);
    expect(runCli(["serve", "--help"]).stdout).toMatch(/--index-from <url>.*s3:\/\/bucket\/prefix/s);
  });

  it.each([
    [["ingest", "--publish-to", "https://bucket/prefix"], "--publish-to"],
    [["ingest", "--publish-to", "s3://Upper_Case/prefix"], "--publish-to"],
    [["ingest", "--publish-to", "s3://bucket/a//b"], "--publish-to"],
    [["serve", "--index-from", "s3://bucket/../elsewhere"], "--index-from"],
    [["serve", "--index-from", "s3://b"], "--index-from"],
  ])("refuses %j with exit code 2 and names the flag", (args, flag) => {
    const result = runCli(args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`configuration error: ${flag} must be s3://bucket/prefix`);
  });

  it("names the variable when the setting comes from the environment", () => {
    const publish = runCli(["ingest"], { SERVICE_PUBLISH_URL: "bucket/prefix" });
    expect(publish.status).toBe(2);
    expect(publish.stderr).toContain("configuration error: SERVICE_PUBLISH_URL must be s3://bucket/prefix");
    const follow = runCli(["serve", "--port", "0"], {
      SERVICE_INDEX_FROM_URL: "s3://bucket/prefix",
      SERVICE_INDEX_POLL_SECONDS: "0",
    });
    expect(follow.status).toBe(2);
    expect(follow.stderr).toContain(
      "configuration error: SERVICE_INDEX_POLL_SECONDS must be an integer from 1 to 3600",
    );
    const pathStyle = runCli(["serve", "--port", "0", "--index-from", "s3://bucket/prefix"], {
      SERVICE_OBJECT_STORE_PATH_STYLE: "yes",
    });
    expect(pathStyle.status).toBe(2);
    expect(pathStyle.stderr).toContain("configuration error: SERVICE_OBJECT_STORE_PATH_STYLE must be true or false");
  });

  it("refuses to follow object storage together with a local seed or without a store", () => {
    for (const flag of ["--seed-samples", "--no-storage"]) {
      const result = runCli(["serve", "--port", "0", "--index-from", "s3://bucket/prefix", flag]);
      expect(result.status, result.stderr).toBe(2);
      expect(result.stderr).toContain("configuration error: --index-from takes the index from object storage");
    }
  });
});
