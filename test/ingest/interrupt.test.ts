import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SOURCES } from "../../cli/ingest/sources.ts";
import { removeTempDirs, runCliAsync, SAMPLES_DIR, startCli, tempDir, waitUntil } from "./cli-process.ts";

/**
 * Ctrl-C in a terminal sends SIGINT. A replay and a gazetteer build run synchronously, so a SIGINT handler written in
 * JavaScript (as a module loaded for another command might install) would only run once the work is done: the run
 * would go on to publish. Node's own default ends the process at once, as a kill does, which loses nothing.
 */
describe("Ctrl-C (SIGINT) during a long command", () => {
  afterAll(removeTempDirs);

  it("ends an archive replay at once: nothing is published, and the next run succeeds", async () => {
    const dataDir = tempDir("interrupt");
    const running = startCli(["ingest", "--from-archive", SAMPLES_DIR, "--data-dir", dataDir]);
    // A replay announces every source, then applies their documents interleaved (seconds), then publishes.
    const firstStep = `[1/${SOURCES.length}] ${SOURCES[0]!.slug}: replaying…`;
    await waitUntil(
      () => running.stderr().includes(firstStep) || running.child.exitCode !== null,
      20_000,
      "the replay to start",
    );
    running.child.kill("SIGINT");
    const interrupted = await running.exited;

    expect(interrupted.signal, interrupted.stdout + interrupted.stderr).toBe("SIGINT");
    expect(interrupted.stdout).toBe("");
    expect(interrupted.stderr).not.toContain("publishing the index");
    expect(interrupted.stderr).not.toContain(": ok — ");
    expect(readdirSync(dataDir).filter((name) => name.startsWith("index.sqlite"))).toEqual([]);

    const next = await runCliAsync(["ingest", "--from-archive", SAMPLES_DIR, "--data-dir", dataDir]);
    expect(next.status, next.stderr).toBe(0);
    expect(next.stdout).toMatch(/: succeeded, index published$/m);
    expect(existsSync(join(dataDir, "index.sqlite"))).toBe(true);
  }, 60_000);

  it("ends a gazetteer build at once, leaving no gazetteer", async () => {
    const dataDir = tempDir("interrupt-places");
    const running = startCli(["places", "--data-dir", dataDir]);
    await waitUntil(
      () => running.stderr().includes("building the search index") || running.child.exitCode !== null,
      20_000,
      "the build to start",
    );
    running.child.kill("SIGINT");
    const interrupted = await running.exited;

    expect(interrupted.signal, interrupted.stdout + interrupted.stderr).toBe("SIGINT");
    expect(interrupted.stdout).toBe("");
    expect(existsSync(join(dataDir, "places.sqlite"))).toBe(false);
  }, 60_000);
});
