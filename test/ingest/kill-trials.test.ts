import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acquireIngestionLock } from "../../cli/ingest/run-lock.ts";
import { publishRegistry, readRegistrySources } from "../../cli/registry/build-registry.ts";
import { runIngestion } from "../support/compiled-ingestion.ts";
import { DEFAULT_SAMPLES_DIR } from "../support/publisher-recorded-replies.ts";
import { type PublisherStandin, startPublisherStandin } from "../support/publisher-standin.ts";
import { writeRevisedSamples } from "../support/revised-samples.ts";
import { seededRandom } from "../support/seeded-random.ts";
import { type CliExit, removeTempDirs, runCliAsync, startCli, tempDir } from "./cli-process.ts";
import { indexLosses, indexView, storeLosses, storeView } from "./ledger-losses.ts";

/**
 * `service ingest` (the real executable, fetching from the publisher stand-in) killed with SIGKILL at seeded random
 * moments, over and over in one data directory. The runs alternate between the recorded values and revised ones
 * (revised-samples.ts), so every killed run has a vintage to append for every value. After each kill: the store and
 * the index open and pass `PRAGMA integrity_check`, nothing the last completed run left is lost, and a lock on disk
 * names the killed process. Then a following run takes the lock over, succeeds, and serves exactly the values of
 * its generation: the killed run's half-done work neither blocks nor distorts it. Every sixth following run is the
 * executable; the others are in-process, as the executable runs them (lock, registry, runIngestion, compiled as the
 * executable's: compiled-ingestion.ts), which saves a process start per trial on a machine that may have two cores.
 *
 * A kill moment is a seeded fraction of a calibrated run's duration, counted from the start of the process (start-up,
 * lock, registry) or, for most trials, from its first request to the stand-in (the store is open by then). A run
 * that finishes before its kill is tried again with half the delay, so that every trial is a kill.
 */

const SEED = 20261120;
const TRIALS = 24;
const random = seededRandom(SEED);
type Generation = "recorded" | "revised";
interface Trial {
  number: number;
  fromFirstRequest: boolean;
  fraction: number;
  generation: Generation;
  nextViaCli: boolean;
}
const PLAN: Trial[] = Array.from({ length: TRIALS }, (_, index) => ({
  number: index + 1,
  nextViaCli: (index + 1) % 6 === 0,
  fromFirstRequest: random() >= 0.25,
  fraction: random() * 0.9,
  // The completed runs before the trials end on "revised"; each trial's runs then differ from the last completed one.
  generation: index % 2 === 0 ? "recorded" : "revised",
}));
const nameOf = (trial: Trial) =>
  `trial ${trial.number}: ${trial.generation} values, SIGKILL at ${Math.round(trial.fraction * 100)}% of a run's time after ${trial.fromFirstRequest ? "its first request" : "start"}` +
  `, next run ${trial.nextViaCli ? "the executable" : "in-process"}`;

const envOf = (standin: PublisherStandin) => ({
  ...standin.env,
  SERVICE_INGEST_TIMEOUT_MS: "5000",
  SERVICE_INGEST_RETRIES: "0",
});
const registry = readRegistrySources();

/** The run after a kill, as the executable makes it (lock, registry, run) or the executable itself; "<outcome>, <published>". */
async function followingRun(
  dataDir: string,
  standin: PublisherStandin,
  viaCli: boolean,
): Promise<{ result: string; log: string }> {
  if (viaCli) {
    const exit = await runCliAsync(["ingest", "--data-dir", dataDir], envOf(standin));
    const summary = /: (\w+, (?:index published|source checks published|nothing published))$/m.exec(exit.stdout)?.[1];
    return { result: `exit ${exit.status}: ${summary}`, log: exit.stderr };
  }
  const release = acquireIngestionLock(dataDir);
  if (!release) return { result: "the lock was not taken over", log: "" };
  const lines: string[] = [];
  try {
    publishRegistry(registry, dataDir);
    const summary = await runIngestion({
      dataDir,
      registry,
      only: null,
      now: () => Date.now(),
      progress: (line) => lines.push(line),
      mode: {
        kind: "fetch",
        hosts: standin.hosts,
        blsApiKey: null,
        http: { userAgent: "kill-trials (test@example.org)", timeoutMs: 5000, maxBytes: 20_000_000, retries: 0 },
      },
    });
    return {
      result: `exit ${summary.outcome === "succeeded" ? 0 : 1}: ${summary.outcome}, ${summary.published ? "index published" : summary.checksPublished ? "source checks published" : "nothing published"}`,
      log: lines.join("\n"),
    };
  } finally {
    release();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The values the index serves: after a completed run, exactly those of the generation it fetched. */
function servedValues(dataDir: string): string {
  const index = new Database(join(dataDir, "index.sqlite"), { readonly: true, fileMustExist: true });
  try {
    return JSON.stringify(
      index
        .prepare("SELECT series_slug, reference_period, value FROM observations ORDER BY series_slug, reference_period")
        .all(),
    );
  } finally {
    index.close();
  }
}

/** What a reader (the server, the next run) finds in the data directory; `killedPid` is the process that was killed. */
function dataDirState(dataDir: string, killedPid: number) {
  const store = new Database(join(dataDir, "store.sqlite"), { fileMustExist: true });
  const index = new Database(join(dataDir, "index.sqlite"), { readonly: true, fileMustExist: true });
  const lock = join(dataDir, "ingest.lock");
  try {
    return {
      storeIntegrity: store.pragma("integrity_check", { simple: true }),
      storeForeignKeys: store.pragma("foreign_key_check"),
      // Vintages numbered 1..n per period without a gap: no append was torn.
      vintageGaps: store
        .prepare(`SELECT series_slug, reference_period FROM vintages GROUP BY series_slug, reference_period
        HAVING max(sequence) <> count(*) OR min(sequence) <> 1`)
        .all(),
      indexIntegrity: index.pragma("integrity_check", { simple: true }),
      indexPublished: index.prepare("SELECT value FROM publication WHERE key = 'publishedAt'").pluck().get() !== null,
      registryReadable: (() => {
        try {
          return typeof JSON.parse(readFileSync(join(dataDir, "registry.json"), "utf8")) === "object";
        } catch {
          return false;
        }
      })(),
      lock: !existsSync(lock)
        ? "none"
        : readFileSync(lock, "utf8").trim() === String(killedPid)
          ? "the killed run's"
          : `someone else's: ${readFileSync(lock, "utf8")}`,
      unfinishedRuns: store.prepare("SELECT count(*) FROM runs WHERE outcome = 'running'").pluck().get() as number,
      failedRunsNotInterrupted: store
        .prepare("SELECT count(*) FROM runs WHERE outcome = 'failed' AND summary NOT LIKE '%interrupted%'")
        .pluck()
        .get() as number,
    };
  } finally {
    store.close();
    index.close();
  }
}

/** Where the killed run was, by its last progress line. */
function phaseOf(stderr: string): string {
  const last = stderr.trim().split("\n").at(-1) ?? "";
  if (last === "") return "starting up";
  if (last.startsWith("publishing")) return "publishing the index";
  const source = /^\[\d+\/\d+\] ([a-z-]+): (fetching|ok|INCOMPLETE)/.exec(last);
  if (!source) return `unknown (${last})`;
  return source[2] === "fetching" ? `working on ${source[1]}` : `after ${source[1]}`;
}

describe("service ingest killed with SIGKILL at seeded random moments", () => {
  const dataDir = tempDir("kill-trials");
  const samplesOf: Record<Generation, string> = { recorded: DEFAULT_SAMPLES_DIR, revised: "" };
  const valuesOf: Partial<Record<Generation, string>> = {};
  const calibrated = { startupMs: 0, workMs: 0 };
  const phases: string[] = [];

  /** A completed run of one generation, timed from start to the first request and from there to its end. */
  async function completedRun(generation: Generation): Promise<{ startupMs: number; workMs: number }> {
    const standin = await startPublisherStandin({ samplesDir: samplesOf[generation] });
    try {
      const started = performance.now();
      const run = startCli(["ingest", "--data-dir", dataDir], envOf(standin));
      await standin.waitForRequest("/*", 15_000);
      const firstRequest = performance.now();
      const exit = await run.exited;
      expect(exit.status, exit.stderr).toBe(0);
      valuesOf[generation] = servedValues(dataDir);
      return { startupMs: firstRequest - started, workMs: performance.now() - firstRequest };
    } finally {
      await standin.close();
    }
  }

  /** Starts a run and kills it at the trial's moment; a run that finished first is tried again, earlier. */
  async function killedRun(trial: Trial): Promise<{ exit: CliExit; pid: number; attempts: number }> {
    let delayMs =
      trial.fraction * (trial.fromFirstRequest ? calibrated.workMs : calibrated.startupMs + calibrated.workMs);
    for (let attempt = 1; attempt <= 4; attempt++, delayMs /= 2) {
      const standin = await startPublisherStandin({ samplesDir: samplesOf[trial.generation] });
      try {
        const run = startCli(["ingest", "--data-dir", dataDir], envOf(standin));
        const finished = run.exited.then(() => "finished" as const);
        if (trial.fromFirstRequest) await Promise.race([standin.waitForRequest("/*", 15_000), finished]);
        await Promise.race([sleep(delayMs), finished]);
        if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
        const exit = await run.exited;
        // A run can end on its own just as the kill is sent (its exit not yet seen): it finished first, like one
        // that ended before the kill moment, and is tried again earlier.
        if (exit.signal === "SIGKILL") return { exit, pid: run.pid, attempts: attempt };
        expect(exit.status, exit.stderr).toBe(0);
      } finally {
        await standin.close();
      }
    }
    throw new Error(`${nameOf(trial)}: every attempt finished before its kill`);
  }

  beforeAll(async () => {
    samplesOf.revised = writeRevisedSamples(tempDir("kill-trials-revised"));
    await completedRun("recorded");
    Object.assign(calibrated, await completedRun("revised"));
    expect(valuesOf.recorded).not.toBe(valuesOf.revised);
  }, 60_000);

  afterAll(() => {
    const counts = new Map<string, number>();
    for (const phase of phases) counts.set(phase, (counts.get(phase) ?? 0) + 1);
    process.stderr.write(
      `kill trials: ${phases.length} kills; where: ${[...counts].map(([phase, count]) => `${phase} ×${count}`).join(", ")}\n`,
    );
    removeTempDirs();
  });

  // Sequential: every trial continues the one data directory the trials before it left.
  test.for(PLAN.map((trial) => [nameOf(trial), trial] as const))("%s", async ([, trial]) => {
    const storeBefore = storeView(dataDir);
    const indexBefore = indexView(dataDir);

    const killed = await killedRun(trial);
    phases.push(`${phaseOf(killed.exit.stderr)}${killed.attempts > 1 ? ` (attempt ${killed.attempts})` : ""}`);
    const {
      unfinishedRuns: _unfinished,
      failedRunsNotInterrupted: _failed,
      lock,
      ...afterKill
    } = dataDirState(dataDir, killed.pid);
    expect(
      {
        signal: killed.exit.signal,
        ...afterKill,
        lockIsNoneOrTheKilledRuns: lock === "none" || lock === "the killed run's",
        storeLosses: storeLosses(storeBefore, storeView(dataDir)),
        indexLosses: indexLosses(indexBefore, indexView(dataDir)),
      },
      killed.exit.stderr,
    ).toEqual({
      signal: "SIGKILL",
      storeIntegrity: "ok",
      storeForeignKeys: [],
      vintageGaps: [],
      indexIntegrity: "ok",
      indexPublished: true,
      registryReadable: true,
      lockIsNoneOrTheKilledRuns: true,
      storeLosses: [],
      indexLosses: [],
    });

    const standin = await startPublisherStandin({ samplesDir: samplesOf[trial.generation] });
    try {
      const next = await followingRun(dataDir, standin, trial.nextViaCli);
      expect(
        {
          next: next.result,
          ...dataDirState(dataDir, killed.pid),
          abandonedIndexBuilds: readdirSync(dataDir).filter((name) => name.endsWith(".building")),
          servesItsGeneration: servedValues(dataDir) === valuesOf[trial.generation],
          storeLosses: storeLosses(storeBefore, storeView(dataDir)),
          indexLosses: indexLosses(indexBefore, indexView(dataDir)),
        },
        next.log,
      ).toEqual({
        next: "exit 0: succeeded, index published",
        storeIntegrity: "ok",
        storeForeignKeys: [],
        vintageGaps: [],
        indexIntegrity: "ok",
        indexPublished: true,
        registryReadable: true,
        // The killed run's lock was taken over and released; its run record (if it got that far) closed as interrupted.
        lock: "none",
        unfinishedRuns: 0,
        failedRunsNotInterrupted: 0,
        abandonedIndexBuilds: [],
        servesItsGeneration: true,
        storeLosses: [],
        indexLosses: [],
      });
    } finally {
      await standin.close();
    }
  });
});
