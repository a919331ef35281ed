import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acquireIngestionLock } from "../../cli/ingest/run-lock.ts";
import { DATA_FILES } from "../../schemas/data-files.ts";
import { waitUntil } from "../ingest/cli-process.ts";
import { startCli } from "../support/long-running-cli.ts";
import { runCli } from "../support/run-cli.ts";

/** serve's stderr: JSON lines of its log, every one. */
const logLines = (stderr: string) =>
  stderr
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("serve started while an ingestion runs", () => {
  it("leaves the registry to the run holding the lock (it publishes it) and says so in one line", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "serve-registry-lock-"));
    expect(runCli(["registry"], { SERVICE_DATA_DIR: dataDir }).status).toBe(0);
    const path = join(dataDir, DATA_FILES.registry);
    const before = { text: readFileSync(path, "utf8"), mtimeMs: statSync(path).mtimeMs };
    // The lock records this test's process as the run: alive, so it is held, not stale.
    const release = acquireIngestionLock(dataDir)!;
    const service = startCli(["serve", "--port", "0"], { SERVICE_DATA_DIR: dataDir });
    try {
      await service.waitForStdout(/listening on/, 30_000);
      expect({ text: readFileSync(path, "utf8"), mtimeMs: statSync(path).mtimeMs }).toEqual(before);
      // The log is written in batches, at least once a second.
      await waitUntil(() => service.stderr().includes("is in progress"), 10_000, "the line on stderr");
      expect(logLines(service.stderr())).toContainEqual(
        expect.objectContaining({
          level: "warn",
          msg: `an ingestion run (pid ${process.pid}) is in progress: it publishes the registry; serving the one in ${dataDir} until then`,
        }),
      );
    } finally {
      await service.stop("SIGTERM");
      release();
    }
  }, 60_000);

  it("says so when no registry is published yet, rather than that one is served", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "serve-registry-lock-"));
    const release = acquireIngestionLock(dataDir)!;
    const service = startCli(["serve", "--port", "0"], { SERVICE_DATA_DIR: dataDir });
    try {
      await service.waitForStdout(/listening on/, 30_000);
      expect(existsSync(join(dataDir, DATA_FILES.registry))).toBe(false);
      // The log is written in batches, at least once a second.
      await waitUntil(() => service.stderr().includes("is in progress"), 10_000, "the line on stderr");
      expect(logLines(service.stderr())).toContainEqual(
        expect.objectContaining({
          level: "warn",
          msg: `an ingestion run (pid ${process.pid}) is in progress: it publishes the registry; none is published in ${dataDir} yet, so registry routes answer CONFIGURATION_ERROR until it is`,
        }),
      );
    } finally {
      await service.stop("SIGTERM");
      release();
    }
  }, 60_000);
});
