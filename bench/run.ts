/**
 * The service end to end under load on this machine, each route beside h3 serving the same bytes from memory and its
 * ceiling (a bare node:http server sending them), plus ingestion time, memory and upstream economy. Everything runs on 127.0.0.1; weather comes from
 * the local MET stand-in (not real weather). Prints tables and writes bench/results/latest.json.
 * Run: npm run bench   (about 6 minutes on 2 cores; not part of npm test)
 * BENCH_WEATHER_POINTS sets how many distinct points warm the weather cache (see DEFAULT_WARM_POINTS).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MetStandin, startMetStandin } from "../cli/demo/met-standin.ts";
import { DEFAULT_WEATHER_SETTINGS } from "../server/weather/weather-settings.ts";
import { type Ceiling, startCeiling } from "./service-benchmark/ceiling.ts";
import { buildService, type CommandRun, PACKAGE_ROOT, runServiceCli } from "./service-benchmark/cli-runner.ts";
import { compareRoute, DEFAULT_PLAN, type LoadPlan, type RouteResult } from "./service-benchmark/compare-route.ts";
import { ingestArchive, prepareDataDir } from "./service-benchmark/data-dir.ts";
import { type LoadGenerator, startLoadGenerator } from "./service-benchmark/load-generator.ts";
import { type Check, machineFacts, printChecks, printRouteTable, writeResults } from "./service-benchmark/report.ts";
import { type BenchRoute, SAMPLE_PROFILE, storageRoutes, WEATHER_ROUTES } from "./service-benchmark/routes.ts";
import { createRunGuard } from "./service-benchmark/run-guard.ts";
import { STANDIN_REQUESTS_PER_SECOND, startService } from "./service-benchmark/service-process.ts";
import { loadSyntheticGenerator, profileFromRegistry } from "./service-benchmark/synthetic-dataset.ts";
import { stampedeColdPoint, warmDistinctPoints } from "./service-benchmark/weather-points.ts";

/**
 * Against MET the service lets at most 20 calls a second through, so 10,000 cold points would take over 8 minutes; the
 * benchmark's MET is a local stand-in, which the service may ask STANDIN_REQUESTS_PER_SECOND times a second
 * (service-process.ts), so the 10,000 points of the target take about half a minute.
 */
const DEFAULT_WARM_POINTS = 10_000;
const WARM_CONCURRENCY = 64;
const STAMPEDE_REQUESTS = 1_000;
/** Like the round trip to the real MET; it also keeps the stampede's requests in flight together while MET "answers". */
const MET_LATENCY_MS = 200;
const RESIDENT_TARGET_MB = 200;
const REINGEST_TARGET_MS = 2_000;
const PUBLISH_TARGET_MS = 30_000;
/** Past this the run is stuck, not slow: stop everything rather than hang. */
const HARD_LIMIT_MS = 15 * 60_000;
const ENVIRONMENT = "bench";
const SAMPLE_ARCHIVE = join(PACKAGE_ROOT, "data/samples");

const runStarted = Date.now();
const machineAtStart = machineFacts();
const log = (line: string) =>
  process.stderr.write(`[${((Date.now() - runStarted) / 1000).toFixed(0).padStart(3)} s] ${line}\n`);
const mb = (value: number) => `${value.toFixed(0)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const peak = (run: CommandRun) => (run.peakRssMb === null ? "not measured" : mb(run.peakRssMb));

type Tools = { ceiling: Ceiling; load: LoadGenerator };

const guard = createRunGuard(HARD_LIMIT_MS, log);

async function measureRoutes(
  routes: readonly BenchRoute[],
  serviceUrl: string,
  apiKey: string,
  tools: Tools,
  plan: LoadPlan,
): Promise<RouteResult[]> {
  const results: RouteResult[] = [];
  for (const route of routes) {
    const result = await compareRoute(route, { serviceUrl, apiKey, ceiling: tools.ceiling, load: tools.load, plan });
    log(
      `${route.name}: ${result.service.requestsPerSecond.toFixed(0)} req/s, h3 ${result.h3.requestsPerSecond.toFixed(0)} (${result.h3Ratio.toFixed(2)}), ceiling ${result.ceiling.requestsPerSecond.toFixed(0)} (${result.ratio.toFixed(2)})`,
    );
    results.push(result);
  }
  return results;
}

async function prepareSamples(root: string) {
  const options = {
    dataDir: join(root, "samples"),
    archiveDir: SAMPLE_ARCHIVE,
    environment: ENVIRONMENT,
    ingestTimeoutMs: 120_000,
  };
  const prepared = await prepareDataDir(options);
  log(`sample archive ingested in ${seconds(prepared.ingest.elapsedMs)}`);
  const reingest = await ingestArchive(options);
  log(`no-change second ingest in ${seconds(reingest.elapsedMs)}`);
  const places = await runServiceCli(["places", "--data-dir", options.dataDir], { timeoutMs: 60_000 });
  log(`place index built in ${seconds(places.elapsedMs)}`);
  return { prepared, reingest, places };
}

/** The data set at scale, generated and ingested; null when its generator does not exist yet. */
async function prepareSynthetic(root: string) {
  const generate = await loadSyntheticGenerator();
  if (!generate) return null;
  const generationStarted = performance.now();
  const archive = await generate(join(root, "synthetic-archive"));
  const generationMs = performance.now() - generationStarted;
  log(`synthetic archive generated in ${seconds(generationMs)}: ${JSON.stringify(archive.counts)}`);
  const prepared = await prepareDataDir({
    dataDir: join(root, "synthetic"),
    archiveDir: archive.archiveDir,
    registryDir: archive.registryDir,
    environment: ENVIRONMENT,
    ingestTimeoutMs: 420_000,
  });
  log(`synthetic archive ingested in ${seconds(prepared.ingest.elapsedMs)}`);
  return { archive, generationMs, prepared };
}

type SyntheticData = NonNullable<Awaited<ReturnType<typeof prepareSynthetic>>>;

/** Publishing the index from the store at scale, as the run itself reports it (cli/ingest/run-ingestion.ts). */
function publishCheck(ingestStderr: string, vintages: number): Check {
  const reported = /index published in ([\d.]+) s/.exec(ingestStderr);
  const ms = reported ? Number(reported[1]) * 1000 : Number.NaN;
  return {
    name: `publishing the index from ${vintages} vintages`,
    value: reported ? seconds(ms) : "not reported",
    target: `< ${seconds(PUBLISH_TARGET_MS)}`,
    pass: ms < PUBLISH_TARGET_MS,
  };
}

async function measureSynthetic({ archive, generationMs, prepared }: SyntheticData, standin: MetStandin, tools: Tools) {
  const service = await startService({
    dataDir: prepared.dataDir,
    environment: ENVIRONMENT,
    weatherBaseUrl: standin.url,
    registryDir: archive.registryDir,
  });
  guard.onCleanUp(() => service.stop());
  const profile = profileFromRegistry(archive.registryDir, SAMPLE_PROFILE);
  const routes = await measureRoutes(storageRoutes(profile), service.url, prepared.apiKey, tools, DEFAULT_PLAN);
  const residentAfterLoad = service.residentMb();
  await service.stop();
  const checks: Check[] = [
    {
      name: "synthetic ingest (beside the weather warm-up)",
      value: `${seconds(prepared.ingest.elapsedMs)}, peak ${peak(prepared.ingest)}`,
      target: "-",
      pass: null,
    },
    publishCheck(prepared.ingest.stderr, Number(archive.counts.vintages)),
    {
      name: "resident after the route load",
      value: mb(residentAfterLoad),
      target: `< ${RESIDENT_TARGET_MB} MB`,
      pass: residentAfterLoad < RESIDENT_TARGET_MB,
    },
  ];
  return {
    counts: archive.counts,
    profile,
    generationMs,
    routes,
    checks,
    ingestion: { ms: prepared.ingest.elapsedMs, peakRssMb: prepared.ingest.peakRssMb, besideWeatherWarmUp: true },
    memory: { residentAfterLoadMb: residentAfterLoad },
  };
}

const root = mkdtempSync(join(tmpdir(), "service-bench-"));
guard.onCleanUp(async () => rmSync(root, { recursive: true, force: true }));
try {
  log("compiling (cli/bin.js runs dist/)");
  const build = await buildService();
  log(`compiled in ${seconds(build.elapsedMs)}`);
  const standin = await startMetStandin({ host: "127.0.0.1", port: 0, latencyMs: MET_LATENCY_MS });
  guard.onCleanUp(() => standin.close());
  const ceiling = await startCeiling();
  guard.onCleanUp(() => ceiling.close());
  const load = await startLoadGenerator();
  guard.onCleanUp(() => load.close());
  const tools = { ceiling, load };

  const samples = await prepareSamples(root);
  const service = await startService({
    dataDir: samples.prepared.dataDir,
    environment: ENVIRONMENT,
    weatherBaseUrl: standin.url,
  });
  guard.onCleanUp(() => service.stop());
  const residentAtStart = service.residentMb();
  const warmPoints = Number(process.env.BENCH_WEATHER_POINTS ?? DEFAULT_WARM_POINTS);
  log(`warming ${warmPoints} distinct weather points (${STANDIN_REQUESTS_PER_SECOND} stand-in calls/s at most)`);
  // The warm-up waits on the service's MET gate, not on the CPU: the data set at scale is generated and ingested
  // beside it, on the otherwise idle core, rather than after it. That keeps the whole run under 10 minutes.
  const [warmUp, syntheticData] = await Promise.all([
    warmDistinctPoints(service.url, warmPoints, WARM_CONCURRENCY),
    // Its failure must not cost the sample results.
    prepareSynthetic(root).catch((error: unknown) => {
      log(`data set at scale failed: ${String(error)}`);
      return error instanceof Error ? error : new Error(String(error));
    }),
  ]);
  const residentAfterWarmUp = service.residentMb();
  const stampede = await stampedeColdPoint(service.url, standin.requests, STAMPEDE_REQUESTS);
  log(`stampede: ${stampede.requests} requests, ${stampede.upstreamRequests} reached MET`);
  const routes = await measureRoutes(
    [...WEATHER_ROUTES, ...storageRoutes(SAMPLE_PROFILE)],
    service.url,
    samples.prepared.apiKey,
    tools,
    DEFAULT_PLAN,
  );
  const residentAfterLoad = service.residentMb();
  await service.stop();

  const synthetic =
    syntheticData === null
      ? { skipped: "bench/synthetic-archive/generate.ts does not exist yet: the data set at scale was skipped" }
      : syntheticData instanceof Error
        ? { skipped: `failed: ${syntheticData.message}` }
        : await measureSynthetic(syntheticData, standin, tools).catch((error: unknown) => ({
            skipped: `failed: ${String(error)}`,
          }));
  const elapsedMs = Date.now() - runStarted;

  const { prepared, reingest, places } = samples;
  const checks: Check[] = [
    {
      name: "sample ingest",
      value: `${seconds(prepared.ingest.elapsedMs)}, peak ${peak(prepared.ingest)}`,
      target: "-",
      pass: null,
    },
    {
      name: "no-change second ingest",
      value: seconds(reingest.elapsedMs),
      target: `< ${seconds(REINGEST_TARGET_MS)}`,
      pass: reingest.elapsedMs < REINGEST_TARGET_MS,
    },
    { name: "service resident at start", value: mb(residentAtStart), target: "-", pass: null },
    {
      name: `resident after ${warmPoints} points (cache bound ${DEFAULT_WEATHER_SETTINGS.maxEntries})`,
      value: `${mb(residentAfterWarmUp)} (${seconds(warmUp.elapsedMs)}, failures ${JSON.stringify(warmUp.failures)})`,
      target: `< ${RESIDENT_TARGET_MB} MB`,
      pass: residentAfterWarmUp < RESIDENT_TARGET_MB,
    },
    {
      name: "resident after the route load",
      value: mb(residentAfterLoad),
      target: `< ${RESIDENT_TARGET_MB} MB`,
      pass: residentAfterLoad < RESIDENT_TARGET_MB,
    },
    {
      name: `MET calls for ${STAMPEDE_REQUESTS} concurrent requests at one cold point`,
      value: `${stampede.upstreamRequests} (${stampede.answered200} answered 200 in ${seconds(stampede.elapsedMs)})`,
      target: "exactly 1, all 200",
      pass: stampede.pass,
    },
  ];

  printRouteTable(
    `Sample archive, ${DEFAULT_PLAN.connections} connections, median of ${DEFAULT_PLAN.rounds} x ${DEFAULT_PLAN.roundSeconds} s alternating with h3 and the ceiling`,
    routes,
  );
  printChecks("Sample archive: ingestion, memory, upstream economy", checks);
  if ("skipped" in synthetic) console.log(`\nData set at scale: skipped (${synthetic.skipped})`);
  else {
    printRouteTable(
      `Synthetic archive, ${DEFAULT_PLAN.connections} connections, median of ${DEFAULT_PLAN.rounds} x ${DEFAULT_PLAN.roundSeconds} s`,
      synthetic.routes,
    );
    printChecks("Synthetic archive", synthetic.checks);
  }
  const file = writeResults({
    finishedAt: new Date().toISOString(),
    elapsedMs,
    machine: machineAtStart,
    loadAverage1mAtEnd: machineFacts().loadAverage1m,
    plan: DEFAULT_PLAN,
    weatherSource: `local MET stand-in (${MET_LATENCY_MS} ms latency), not real weather`,
    samples: {
      routes,
      checks,
      ingestion: {
        firstMs: prepared.ingest.elapsedMs,
        firstPeakRssMb: prepared.ingest.peakRssMb,
        noChangeMs: reingest.elapsedMs,
        placesMs: places.elapsedMs,
      },
      memory: {
        residentAtStartMb: residentAtStart,
        residentAfterWarmUpMb: residentAfterWarmUp,
        residentAfterLoadMb: residentAfterLoad,
        warmUp,
      },
      stampede,
    },
    synthetic,
  });
  const loadNote = `load average ${machineAtStart.loadAverage1m.toFixed(1)} at start on ${machineAtStart.cores} cores`;
  console.log(`\nwhole run ${seconds(elapsedMs)} (${loadNote}); results in ${file}`);
} finally {
  await guard.finish();
}
