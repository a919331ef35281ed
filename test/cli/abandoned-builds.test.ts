import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/run-cli.ts";

const SAMPLES_DIR = fileURLToPath(new URL("../../data/samples/", import.meta.url));

/** The pid of a process that has ended, as a build killed by Ctrl-C has. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid;

/**
 * Ctrl-C or a kill ends a build without its `finally`: its temporary file stays, named by the pid of a process the
 * next build (another pid) would never be. The next build removes it, but spares the file of a build still running.
 */
describe("files left by a build ended by a signal", () => {
  it("are removed by the next `service places`, which publishes; a running build's file is kept", () => {
    const dir = mkdtempSync(join(tmpdir(), "abandoned-places-"));
    const dead = deadPid();
    const abandoned = [`places.sqlite.${dead}.building`, `places.sqlite.${dead}.building-journal`];
    const running = `places.sqlite.${process.pid}.building`;
    for (const name of [...abandoned, running]) writeFileSync(join(dir, name), "half a gazetteer");

    const result = runCli(["places", "--data-dir", dir]);

    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^places published to /);
    expect(readdirSync(dir).sort()).toEqual(["places.sqlite", running]);
  }, 60_000);

  it("are removed by the next `service ingest`: under its lock, every index build's and events files', the registry's of writers gone and half-archived documents", () => {
    const dir = mkdtempSync(join(tmpdir(), "abandoned-index-"));
    const dead = deadPid();
    const leftovers = [
      `index.sqlite.${dead}.building`,
      `index.sqlite.${dead}.building-journal`,
      `index.sqlite.${process.pid}.building`,
      `index.sqlite.${dead}.events`,
      `index.sqlite.${process.pid}.events`,
      `index.sqlite.${dead}.main-events`,
      `registry.json.${dead}.tmp`,
    ];
    for (const name of leftovers) writeFileSync(join(dir, name), "half a file");
    // A document a killed run was archiving, in a source folder this run does not write to.
    const archived = join(dir, "archive", "eurostat-release-calendar");
    mkdirSync(archived, { recursive: true });
    const kept = "20261101T000000Z-0f.json";
    for (const name of [kept, `${kept}.${dead}.tmp`]) writeFileSync(join(archived, name), "a document");

    const result = runCli([
      "ingest",
      "--from-archive",
      SAMPLES_DIR,
      "--source",
      "central-bank-meetings-calendar",
      "--data-dir",
      dir,
    ]);

    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/: succeeded, index published$/m);
    expect(existsSync(join(dir, "index.sqlite"))).toBe(true);
    expect(readdirSync(dir).filter((name) => /\.(building|events|main-events|tmp)/.test(name))).toEqual([]);
    expect(readdirSync(archived)).toEqual([kept]);
  }, 60_000);

  it("are removed by the next `service keys` that changes the key file, but a running command's is kept", () => {
    const dir = mkdtempSync(join(tmpdir(), "abandoned-keys-"));
    const dead = deadPid();
    const running = `keys.json.${process.pid}.tmp`;
    for (const name of [`keys.json.${dead}.tmp`, running]) writeFileSync(join(dir, name), "half a key list");

    const result = runCli(["keys", "create", "--scopes", "operator", "--data-dir", dir]);

    expect(result.status, result.stderr).toBe(0);
    expect(
      readdirSync(dir)
        .filter((name) => name.startsWith("keys.json"))
        .sort(),
    ).toEqual(["keys.json", running]);
  }, 60_000);
});
