import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { runIngestion } from "../support/compiled-ingestion.ts";
import { removeTempDirs, SAMPLES_DIR, tempDir } from "./cli-process.ts";

afterEach(removeTempDirs);

const publishedSuccess = (dataDir: string) => {
  const index = new Database(join(dataDir, "index.sqlite"), { readonly: true });
  try {
    return index
      .prepare("SELECT value FROM publication WHERE key = 'lastSuccessfulIngestionAt'")
      .pluck()
      .get() as string;
  } finally {
    index.close();
  }
};

describe("lastSuccessfulIngestionAt", () => {
  it("never moves back, even after a run that was killed between publishing its index and recording itself finished", async () => {
    const dataDir = tempDir("freshness");
    const registry = readRegistrySources(new Date("2026-11-21T00:00:00Z"));
    let tick = Date.parse("2026-11-20T06:00:00Z");
    const run = (dir: string) =>
      runIngestion({
        dataDir,
        registry,
        mode: { kind: "archive", dir },
        only: null,
        now: () => tick++,
        progress: () => {},
      });
    await run(SAMPLES_DIR);
    tick = Date.parse("2026-11-21T06:00:00Z");
    await run(SAMPLES_DIR);
    const secondSuccess = publishedSuccess(dataDir);
    // The state a SIGKILL leaves after the index was renamed into place and before finishRun.
    const store = new Database(join(dataDir, "store.sqlite"));
    store
      .prepare(
        "UPDATE runs SET outcome = 'running', finished_at = NULL WHERE finished_at = (SELECT MAX(finished_at) FROM runs)",
      )
      .run();
    store.close();

    // A partial run: one economics source has nothing to read.
    const partialArchive = tempDir("partial-archive");
    cpSync(SAMPLES_DIR, partialArchive, { recursive: true });
    rmSync(join(partialArchive, "ecb-data"), { recursive: true });
    tick = Date.parse("2026-11-22T06:00:00Z");
    expect((await run(partialArchive)).outcome).toBe("partial");
    expect(publishedSuccess(dataDir)).toBe(secondSuccess);
  });
});
