import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { runIngestion } from "../support/compiled-ingestion.ts";
import { removeTempDirs, SAMPLES_DIR, tempDir } from "./cli-process.ts";

/** A real full disk: a small tmpfs, which needs the right to mount (root, as on CI here); elsewhere the test says so and skips. */
const MOUNT_POINT = "/tmp/service-disk-full-test";
const canMount = (() => {
  try {
    mkdirSync(MOUNT_POINT, { recursive: true });
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=24m", "tmpfs", MOUNT_POINT], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
if (!canMount) console.warn("disk-full test skipped: this machine does not allow mounting a tmpfs");

afterAll(() => {
  if (canMount) execFileSync("umount", [MOUNT_POINT]);
  removeTempDirs();
});

/** Every document of the sample archive with one byte more: new content to archive and apply (a labelled modified copy). */
function changedArchive(): string {
  const archive = tempDir("changed-archive");
  cpSync(SAMPLES_DIR, archive, { recursive: true });
  for (const source of readdirSync(archive, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    for (const name of readdirSync(join(archive, source.name)).filter(
      (file) => !file.endsWith(".md") && !file.endsWith(".fetch.json"),
    )) {
      const path = join(archive, source.name, name);
      writeFileSync(path, Buffer.concat([readFileSync(path), Buffer.from("\n")]));
    }
  }
  return archive;
}

describe.skipIf(!canMount)("ingestion on a full disk", () => {
  it("tries every source, reports each failure, publishes nothing, leaves no half-built index, and loses nothing once space returns", async () => {
    const registry = readRegistrySources(new Date("2026-11-21T00:00:00Z"));
    const dataDir = join(MOUNT_POINT, "data");
    let tick = Date.parse("2026-11-21T06:00:00Z");
    const now = () => tick++;
    expect(
      (
        await runIngestion({
          dataDir,
          registry,
          mode: { kind: "archive", dir: SAMPLES_DIR },
          only: null,
          now,
          progress: () => {},
        })
      ).outcome,
    ).toBe("succeeded");
    const publishedIndex = readFileSync(join(dataDir, "index.sqlite"));

    const available = Number(
      execFileSync("df", ["-B1", "--output=avail", MOUNT_POINT]).toString().split("\n")[1]!.trim(),
    );
    writeFileSync(join(MOUNT_POINT, "filler"), Buffer.alloc(Math.max(0, available - 200_000)));
    const run = await runIngestion({
      dataDir,
      registry,
      mode: { kind: "archive", dir: changedArchive() },
      only: null,
      now,
      progress: () => {},
    });

    expect(run.sources).toHaveLength(9);
    expect(run.sources.some((source) => !source.ok && /ENOSPC|disk is full/.test(source.detail))).toBe(true);
    expect(run.published).toBe(false);
    // Nor its checks: a failed run that cannot write leaves the live index as it was.
    expect(run.checksPublished).toBe(false);
    expect(readFileSync(join(dataDir, "index.sqlite")).equals(publishedIndex)).toBe(true);
    expect(readdirSync(dataDir).filter((name) => name.endsWith(".building"))).toEqual([]);
    // A write-ahead log may stay when even its checkpoint finds no room (the store says so): it is replayed on the
    // next open. With space back, the next run takes every change and leaves none behind.
    rmSync(join(MOUNT_POINT, "filler"));
    const recovered = await runIngestion({
      dataDir,
      registry,
      mode: { kind: "archive", dir: changedArchive() },
      only: null,
      now,
      progress: () => {},
    });
    expect(recovered.outcome).toBe("succeeded");
    expect(recovered.published).toBe(true);
    expect(readdirSync(dataDir).filter((name) => name.endsWith(".building") || name.endsWith("-wal"))).toEqual([]);
    const store = new Database(join(dataDir, "store.sqlite"), { readonly: true });
    try {
      expect(store.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      store.close();
    }
  });
});
