/**
 * Soak run: the service under steady mixed load for minutes, its MET failing at random and ingestion replacing its
 * index every minute, to show what only time shows: no 5xx beyond the documented upstream ones, no answer from a
 * half-published index, memory that stays flat. Everything runs on 127.0.0.1; weather comes from the local MET
 * stand-in (not real weather). Prints tables, writes bench/results/soak-latest.json, exits 1 when an assertion fails.
 * Run: npm run test:soak   (10 minutes; SOAK_MINUTES=2 for a quick proof; SOAK_SEED picks another request sequence.
 * Not part of npm test.)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMetStandin } from "../cli/demo/met-standin.ts";
import { buildService, PACKAGE_ROOT } from "./service-benchmark/cli-runner.ts";
import { prepareDataDir } from "./service-benchmark/data-dir.ts";
import { machineFacts } from "./service-benchmark/report.ts";
import { createRunGuard } from "./service-benchmark/run-guard.ts";
import { startService } from "./service-benchmark/service-process.ts";
import { createTally } from "./soak/answer-tally.ts";
import { createGenerationTracker } from "./soak/index-generations.ts";
import { startIngestSchedule } from "./soak/ingest-schedule.ts";
import { runLoad, takeBaseline } from "./soak/load-loop.ts";
import { judgeMemory, startMemorySampler } from "./soak/memory-curve.ts";
import { publishedFileRoutes, WEATHER_CACHE_ENTRIES } from "./soak/request-mix.ts";
import { seededRandom } from "./soak/seeded-random.ts";
import { printSoakReport, type SoakOutcome, soakChecks, writeSoakResults } from "./soak/soak-report.ts";

const minutes = Number(process.env.SOAK_MINUTES ?? 10);
if (!(minutes > 0 && minutes <= 24 * 60))
  throw new Error(`SOAK_MINUTES must be a number of minutes above 0, not ${process.env.SOAK_MINUTES}`);
const seed = Number(process.env.SOAK_SEED ?? 1);
const DURATION_MS = minutes * 60_000;
/** Within the brief's 16-32: enough to keep both cores busy, few enough that every request is a real client's. */
const IN_FLIGHT = 24;
const INGEST_EVERY_MS = 60_000;
const MEMORY_EVERY_MS = 10_000;
/** The first minute (a quarter of a short run) fills the caches and the JIT; memory is judged after it. */
const WARM_UP_SECONDS = Math.min(60, DURATION_MS / 1000 / 4);
const MAX_MEMORY_GROWTH = 0.2;
/** Short, so hangs become UPSTREAM_TIMEOUT quickly and often; the stand-in's hang lasts well past it. */
const SERVICE_WEATHER_TIMEOUT_MS = 2_000;
const MET_FAILURE_SHARE = 0.2;
const MET_LATENCY_MS = 50;
/** Below the service's 5-minute minimum TTL, so a current reading expires 5 minutes after it was fetched. */
const MET_EXPIRES_AFTER_MS = 60_000;
const ENVIRONMENT = "soak";
const SAMPLE_ARCHIVE = join(PACKAGE_ROOT, "data/samples");
/** Past this the run is stuck, not slow: stop everything rather than hang. */
const HARD_LIMIT_MS = DURATION_MS + 5 * 60_000;

const runStarted = performance.now();
const startedAt = new Date().toISOString();
const machine = machineFacts();
const log = (line: string) =>
  process.stderr.write(`[${((performance.now() - runStarted) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

const guard = createRunGuard(HARD_LIMIT_MS, log);

let passed = false;
try {
  log("compiling (cli/bin.js runs dist/)");
  await buildService();
  const standin = await startMetStandin({
    host: "127.0.0.1",
    port: 0,
    latencyMs: MET_LATENCY_MS,
    expiresAfterMs: MET_EXPIRES_AFTER_MS,
    flaky: {
      failureShare: MET_FAILURE_SHARE,
      hangMs: 3 * SERVICE_WEATHER_TIMEOUT_MS,
      retryAfterSeconds: 2,
      random: seededRandom(seed + 1),
    },
  });
  guard.onCleanUp(() => standin.close());

  const root = mkdtempSync(join(tmpdir(), "service-soak-"));
  guard.onCleanUp(async () => rmSync(root, { recursive: true, force: true }));
  const dataDir = join(root, "data");
  const prepared = await prepareDataDir({
    dataDir,
    archiveDir: SAMPLE_ARCHIVE,
    environment: ENVIRONMENT,
    ingestTimeoutMs: 120_000,
  });
  log(`sample archive ingested into ${dataDir} in ${(prepared.ingest.elapsedMs / 1000).toFixed(2)} s`);

  const serviceEnv = {
    SERVICE_WEATHER_TIMEOUT_MS: String(SERVICE_WEATHER_TIMEOUT_MS),
    SERVICE_WEATHER_MAX_REQUESTS_PER_SECOND: "1000",
    SERVICE_WEATHER_CACHE_ENTRIES: String(WEATHER_CACHE_ENTRIES),
  };
  const service = await startService({
    dataDir,
    environment: ENVIRONMENT,
    weatherBaseUrl: standin.url,
    env: serviceEnv,
  });
  guard.onCleanUp(() => service.stop());
  const baselineShapes = await takeBaseline(service.url, prepared.apiKey, publishedFileRoutes());
  log(
    `service at ${service.url}, ${service.residentMb().toFixed(0)} MB resident; ${minutes} min of load with ${IN_FLIGHT} in flight, ingestion every minute`,
  );

  const loadStarted = performance.now();
  const tally = createTally();
  const generations = createGenerationTracker(loadStarted);
  const memory = startMemorySampler(() => service.residentMb(), MEMORY_EVERY_MS);
  const ingestion = startIngestSchedule({
    dataDir,
    archiveDir: SAMPLE_ARCHIVE,
    environment: ENVIRONMENT,
    everyMs: INGEST_EVERY_MS,
    durationMs: DURATION_MS,
    log,
  });
  const progress = setInterval(() => {
    const report = tally.report();
    log(
      `${report.requests} answers, ${service.residentMb().toFixed(0)} MB resident, problems ${JSON.stringify(Object.fromEntries(Object.entries(report.problems).map(([kind, entry]) => [kind, entry.count])))}`,
    );
  }, 30_000);
  await runLoad({
    serviceUrl: service.url,
    apiKey: prepared.apiKey,
    inFlight: IN_FLIGHT,
    durationMs: DURATION_MS,
    random: seededRandom(seed),
    baselineShapes,
    tally,
    generations,
  });
  clearInterval(progress);
  const samples = memory.stop();
  const runs = await ingestion.finished;
  await service.stop();

  const outcome: SoakOutcome = {
    startedAt,
    finishedAt: new Date().toISOString(),
    elapsedMs: performance.now() - runStarted,
    machine,
    settings: {
      minutes,
      seed,
      inFlight: IN_FLIGHT,
      ingestEveryMs: INGEST_EVERY_MS,
      memoryEveryMs: MEMORY_EVERY_MS,
      serviceEnv,
      standin: {
        failureShare: MET_FAILURE_SHARE,
        latencyMs: MET_LATENCY_MS,
        expiresAfterMs: MET_EXPIRES_AFTER_MS,
        notice: "local MET stand-in, not real weather",
      },
    },
    tally: tally.report(),
    generations: generations.report(),
    ingestion: runs,
    memory: { samples, verdict: judgeMemory(samples, WARM_UP_SECONDS, MAX_MEMORY_GROWTH) },
    standin: { requests: standin.requests(), faults: standin.faultsServed() },
  };
  const checks = soakChecks(outcome);
  printSoakReport(outcome, checks);
  const file = writeSoakResults(outcome, checks);
  passed = checks.every((check) => check.pass !== false);
  console.log(
    `\nsoak ${passed ? "PASSED" : "FAILED"}: ${minutes} min of load, whole run ${(outcome.elapsedMs / 1000).toFixed(1)} s; results in ${file}`,
  );
} catch (error) {
  log(`soak run could not complete: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  await guard.finish();
}
// Exiting explicitly: a keep-alive socket of the baseline's fetch would otherwise hold the process for a few seconds.
process.exit(passed ? 0 : 1);
