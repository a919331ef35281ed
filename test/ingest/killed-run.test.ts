import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIngestion } from "../../cli/ingest/run-ingestion.ts";
import { SOURCES } from "../../cli/ingest/sources.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { PUBLISHER_PATHS } from "../support/publisher-paths.ts";
import { type PublisherStandin, startPublisherStandin } from "../support/publisher-standin.ts";
import { type RunningService, startService } from "../support/service.ts";
import {
  type CliExit,
  type CliProcess,
  removeTempDirs,
  runCliAsync,
  SAMPLES_DIR,
  startCli,
  tempDir,
  waitUntil,
} from "./cli-process.ts";

/** The run hangs on the Eurostat data requests; the sources before it have done their work by then. */
const HANGING = SOURCES.findIndex((source) => source.slug === "eurostat-sdmx");
const DONE_BEFORE = SOURCES.slice(0, HANGING).map((source) => source.slug);
const step = (index: number) => `[${index + 1}/${SOURCES.length}]`;

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** Every file under the archive: complete (its content hashes to the name) and none left as a temporary. */
function archiveFiles(dataDir: string): { path: string; name: string; complete: boolean }[] {
  const root = join(dataDir, "archive");
  // Source folders only: the archive's fetch record (fetch-order.ts FETCH_ORDER_FILE) lies beside them.
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .flatMap((source) =>
      readdirSync(join(root, source)).map((name) => {
        const path = join(root, source, name);
        const hash = /-([0-9a-f]{64})\.[a-z]+$/.exec(name)?.[1];
        return { path, name, complete: hash !== undefined && sha256(readFileSync(path)) === hash };
      }),
    );
}

describe("an ingestion run killed mid-way (SIGKILL of the real CLI)", () => {
  let standin: PublisherStandin;
  let service: RunningService;
  let key: string;
  let indexBefore: Buffer;
  let eventsBefore: unknown;
  let calendarBefore: { dataUpdatedAt: string; days: unknown };
  let seedOutcome = "";
  let child: CliProcess | undefined;
  let killedPid = 0;
  let killed: CliExit;
  let stderrAtKill = "";
  const EVENTS = "/api/v1/economics/events?from=2026-01-01&to=2026-12-31&limit=500";
  const CALENDAR = "/api/public/v1/economics/calendar?from=2026-11-01&to=2026-12-31&limit=200";

  beforeAll(async () => {
    // A published index from a replay of the sample archive, served by a running service.
    const seed = tempDir("kill-seed");
    let tick = Date.parse("2026-11-20T06:00:00.000Z");
    const replay = await runIngestion({
      dataDir: seed,
      registry: readRegistrySources(),
      mode: { kind: "archive", dir: SAMPLES_DIR },
      only: null,
      now: () => tick++,
      progress: () => {},
    });
    expect(replay.published).toBe(true);
    seedOutcome = replay.outcome;
    service = await startService({ seedDataDir: seed });
    key = service.createKey(["economics:read"]);
    indexBefore = readFileSync(join(service.dataDir, "index.sqlite"));
    const events = await service.request(EVENTS, { headers: { authorization: `Bearer ${key}` } });
    expect(events.status).toBe(200);
    eventsBefore = events.body.data;
    const calendar = await service.request(CALENDAR);
    expect(calendar.status).toBe(200);
    calendarBefore = { dataUpdatedAt: calendar.body.meta.dataUpdatedAt, days: calendar.body.data.days };

    // A fetch-mode run into the service's data directory, whose Eurostat data requests never answer.
    standin = await startPublisherStandin();
    standin.hang(PUBLISHER_PATHS.eurostatData);
    const running = startCli(["ingest", "--data-dir", service.dataDir], {
      ...standin.env,
      SERVICE_INGEST_TIMEOUT_MS: "120000",
      SERVICE_INGEST_RETRIES: "0",
    });
    child = running;
    killedPid = running.pid;
    await standin.waitForRequest(PUBLISHER_PATHS.eurostatData, 15_000);
    await waitUntil(
      () => running.stderr().includes(`${step(HANGING)} eurostat-sdmx: fetching…`),
      5000,
      "the run to reach eurostat-sdmx",
    );
    expect(running.child.exitCode).toBeNull();
    stderrAtKill = running.stderr();
    running.child.kill("SIGKILL");
    killed = await running.exited;
  });

  afterAll(async () => {
    if (child && child.child.exitCode === null && child.child.signalCode === null) child.child.kill("SIGKILL");
    await service?.close();
    await standin?.close();
    removeTempDirs();
  });

  it("was killed while it hung on a source, after earlier sources had written to the store", () => {
    expect(killed.signal).toBe("SIGKILL");
    expect(HANGING).toBeGreaterThan(0);
    for (const [index, slug] of DONE_BEFORE.entries()) expect(stderrAtKill).toContain(`${step(index)} ${slug}: ok — `);
    expect(stderrAtKill).toContain(`${step(HANGING)} eurostat-sdmx: fetching…`);
    expect(stderrAtKill).not.toContain("publishing the index");
    const store = new Database(join(service.dataDir, "store.sqlite"), { readonly: true });
    try {
      const runs = store.prepare("SELECT id, outcome, finished_at FROM runs ORDER BY started_at").all() as {
        id: string;
        outcome: string;
        finished_at: string | null;
      }[];
      expect(runs.map((run) => [run.outcome, run.finished_at === null])).toEqual([
        [seedOutcome, false],
        ["running", true],
      ]);
      // Each source before the hanging one committed its work and its check; the killed run's own record stays "running".
      const checks = store
        .prepare("SELECT source, result FROM source_checks WHERE run_id = ? ORDER BY source")
        .all(runs[1]!.id);
      expect(checks).toEqual([...DONE_BEFORE].sort().map((source) => ({ source, result: "successful" })));
    } finally {
      store.close();
    }
  });

  it("leaves the previous index byte-identical and still served", async () => {
    expect(readFileSync(join(service.dataDir, "index.sqlite")).equals(indexBefore)).toBe(true);
    const events = await service.request(EVENTS, { headers: { authorization: `Bearer ${key}` } });
    expect(events.status).toBe(200);
    expect(events.body.data).toEqual(eventsBefore);
    const calendar = await service.request(CALENDAR);
    expect(calendar.status).toBe(200);
    expect({ dataUpdatedAt: calendar.body.meta.dataUpdatedAt, days: calendar.body.data.days }).toEqual(calendarBefore);
  });

  it("leaves a consistent store and nothing half-written that a reader would use", () => {
    const store = new Database(join(service.dataDir, "store.sqlite"));
    try {
      expect(store.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(store.pragma("foreign_key_check")).toEqual([]);
      // Vintages are numbered 1..n per period with no gap: no append was torn.
      const gaps = store
        .prepare(`SELECT series_slug, reference_period FROM vintages GROUP BY series_slug, reference_period
        HAVING max(sequence) <> count(*) OR min(sequence) <> 1`)
        .all();
      expect(gaps).toEqual([]);
      // Every document on record is in the archive, whole.
      const paths = store.prepare("SELECT DISTINCT archive_path FROM documents").pluck().all() as string[];
      for (const path of paths) {
        expect(existsSync(path), path).toBe(true);
        expect(path.endsWith(".tmp"), path).toBe(false);
      }
    } finally {
      store.close();
    }
    const files = archiveFiles(service.dataDir);
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((file) => !file.complete)).toEqual([]);
    // The only index file a reader opens is index.sqlite; no build of a new one was started.
    expect(readdirSync(service.dataDir).filter((name) => name.startsWith("index.sqlite"))).toEqual(["index.sqlite"]);
    // The killed run's lock is still on disk, naming a process that is gone.
    expect(readFileSync(join(service.dataDir, "ingest.lock"), "utf8").trim()).toBe(String(killedPid));
  });

  it("lets the next run take over the stale lock, close the killed run as failed, succeed and publish; the running service picks the new index up", async () => {
    standin.reset();
    const next = await runCliAsync(["ingest", "--data-dir", service.dataDir], {
      ...standin.env,
      SERVICE_INGEST_TIMEOUT_MS: "5000",
      SERVICE_INGEST_RETRIES: "0",
    });
    expect(next.status, next.stderr).toBe(0);
    expect(next.stdout).toMatch(/: succeeded, index published$/m);
    expect(existsSync(join(service.dataDir, "ingest.lock"))).toBe(false);
    expect(readdirSync(service.dataDir).filter((name) => name.endsWith(".building"))).toEqual([]);
    expect(readFileSync(join(service.dataDir, "index.sqlite")).equals(indexBefore)).toBe(false);
    const calendar = await service.request(CALENDAR);
    expect(calendar.status).toBe(200);
    expect(calendar.body.meta.dataUpdatedAt > calendarBefore.dataUpdatedAt).toBe(true);
    const store = new Database(join(service.dataDir, "store.sqlite"), { readonly: true });
    try {
      expect(store.prepare("SELECT outcome FROM runs ORDER BY started_at").pluck().all()).toEqual([
        seedOutcome,
        "failed",
        "succeeded",
      ]);
      expect(store.prepare("SELECT summary FROM runs ORDER BY started_at").pluck().all()[1]).toMatch(/interrupted/);
      expect(store.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      store.close();
    }
  });
});
