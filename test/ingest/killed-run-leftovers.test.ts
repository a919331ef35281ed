import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { archiveDocument, replayDocuments } from "../../cli/ingest/archive.ts";
import { acquireIngestionLock, ingestionRunning } from "../../cli/ingest/run-lock.ts";
import { removeTempDirs, SAMPLES_DIR, tempDir } from "./cli-process.ts";

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("the archive after a run killed while writing a document", () => {
  it("archives the document again, whole, instead of taking the leftover temporary file for it", () => {
    const dataDir = tempDir("kill-archive");
    const archive = join(dataDir, "archive");
    const body = readFileSync(join(SAMPLES_DIR, "labour-stats-release-schedule", "bls-schedule-2025-2026.ics"));
    const hash = sha256(body);
    // What a kill between writeFileSync and renameSync leaves behind: a temporary, possibly cut short.
    mkdirSync(join(archive, "labour-stats-release-schedule"), { recursive: true });
    writeFileSync(
      join(archive, "labour-stats-release-schedule", `20261120T060000Z-${hash}.ics.tmp`),
      body.subarray(0, 1000),
    );

    // The ledger never recorded the killed run's document, so it has no archived path for this hash.
    const archived = archiveDocument(
      archive,
      "labour-stats-release-schedule",
      body,
      "2026-11-21T06:00:00.000Z",
      "ics",
      () => undefined,
    );
    expect(archived.path.endsWith(".tmp")).toBe(false);
    expect(readFileSync(archived.path).equals(body)).toBe(true);
    const replayable = replayDocuments(archive, "labour-stats-release-schedule");
    expect(replayable.map((document) => document.name)).toEqual([`20261121T060000Z-${hash}.ics`]);
    expect(replayable[0]!.body?.equals(body)).toBe(true);
    removeTempDirs();
  });

  it("does not write a document the ledger has already archived", () => {
    const dataDir = tempDir("kill-archive-known");
    const archive = join(dataDir, "archive");
    const body = readFileSync(join(SAMPLES_DIR, "labour-stats-release-schedule", "bls-schedule-2025-2026.ics"));
    const first = archiveDocument(
      archive,
      "labour-stats-release-schedule",
      body,
      "2026-11-21T06:00:00.000Z",
      "ics",
      () => undefined,
    );
    const again = archiveDocument(
      archive,
      "labour-stats-release-schedule",
      body,
      "2026-11-22T06:00:00.000Z",
      "ics",
      () => first.path,
    );
    expect(again.path).toBe(first.path);
    expect(replayDocuments(archive, "labour-stats-release-schedule")).toHaveLength(1);
    removeTempDirs();
  });
});

describe("the ingestion lock a killed run leaves behind", () => {
  const lockWith = (pid: number) => {
    const dataDir = tempDir("kill-lock");
    writeFileSync(join(dataDir, "ingest.lock"), String(pid));
    return dataDir;
  };
  afterAll(removeTempDirs);

  it("is taken over when its process is gone", async () => {
    const gone = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    await new Promise((resolve) => gone.on("close", resolve));
    const dataDir = lockWith(gone.pid!);
    const release = acquireIngestionLock(dataDir);
    expect(release).not.toBeNull();
    expect(readFileSync(join(dataDir, "ingest.lock"), "utf8")).toBe(String(process.pid));
    release!();
    expect(existsSync(join(dataDir, "ingest.lock"))).toBe(false);
  });

  it("is taken over when it names the very process that asks (a PID reused, as in a restarted container)", () => {
    const release = acquireIngestionLock(lockWith(process.pid));
    expect(release).not.toBeNull();
    release!();
  });

  it("is respected while its process is alive", async () => {
    const alive = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { stdio: "ignore" });
    try {
      const dataDir = lockWith(alive.pid!);
      expect(acquireIngestionLock(dataDir)).toBeNull();
      expect(ingestionRunning(dataDir)).toBe(true);
      expect(readFileSync(join(dataDir, "ingest.lock"), "utf8")).toBe(String(alive.pid));
    } finally {
      alive.kill("SIGKILL");
    }
  });
});
