/**
 * Where the service's resident memory goes through the benchmark's sample part, without the rest of the benchmark: the
 * sample archive ingested, the service started as bench/run.ts starts it, the weather warm-up and the stampede, then
 * each route of the route load in turn. After each step it prints the resident memory and what holds it: the kernel's
 * mappings (/proc/PID/smaps: the C allocator's main arena, other anonymous memory, code and libraries) and the
 * service's own metrics (V8's heap spaces, external bytes, each cache's bytes).
 * Run: npx tsx bench/route-load-memory.ts   (about 3 minutes)
 * BENCH_WEATHER_POINTS as in bench/run.ts; any SERVICE_* variable or NODE_OPTIONS given to it reaches the service;
 * BENCH_SKIP_BUILD=1 uses dist/ as it is; BENCH_SKIP_STAMPEDE=1 leaves out the 1,000 requests at one cold point;
 * BENCH_SIDE_BY_SIDE=1 loads h3 and the ceiling between the service's rounds, as bench/run.ts does;
 * BENCH_HEAP_SNAPSHOT_DIR ends with a heap snapshot there (see below).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { type Ceiling, startCeiling } from "./service-benchmark/ceiling.ts";
import { runServiceCli } from "./service-benchmark/cli-runner.ts";
import { compareRoute, DEFAULT_PLAN } from "./service-benchmark/compare-route.ts";
import { BENCH_ENVIRONMENT } from "./service-benchmark/data-dir.ts";
import { SAMPLE_PROFILE, storageRoutes, WEATHER_ROUTES } from "./service-benchmark/routes.ts";
import { startSampleRig } from "./service-benchmark/sample-rig.ts";
import { startService } from "./service-benchmark/service-process.ts";
import { stampedeColdPoint, warmDistinctPoints } from "./service-benchmark/weather-points.ts";

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** Resident kB of the process's mappings, grouped: V8's and the allocator's anonymous memory cannot be told apart here. */
function mappings(pid: number): Record<string, number> {
  const groups: Record<string, number> = {};
  let name = "";
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const path = header[1] ?? "";
      name = path === "" ? "anonymous" : path.startsWith("/") ? (path.split("/").at(-1) ?? path) : path;
      if (/\.so(\.|$)/.test(name) || name === "node") name = "code and libraries";
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB$/.exec(line);
    if (rss) groups[name] = (groups[name] ?? 0) + Number(rss[1]);
  }
  return groups;
}

/** The figures of the metrics exposition that say where memory is, in bytes. */
function memoryMetrics(exposition: string): Record<string, number> {
  const wanted =
    /^(process_resident_memory_bytes|nodejs_heap_size_total_bytes|nodejs_heap_size_used_bytes|nodejs_external_memory_bytes|nodejs_heap_space_size_used_bytes\{space="(?:old|new|large_object|code)"\}|service_cache_bytes\{[^}]*\}) (\S+)$/gm;
  return Object.fromEntries([...exposition.matchAll(wanted)].map((match) => [match[1]!, Number(match[2])]));
}

const rig = await startSampleRig("route-load-memory");
const { dataDir, apiKey, standin, load } = rig;
try {
  await runServiceCli(["places", "--data-dir", dataDir], { timeoutMs: 60_000 });
  const operatorRun = await runServiceCli(
    ["keys", "--data-dir", dataDir, "create", "--scopes", "operator", "--env", BENCH_ENVIRONMENT, "--name", "probe"],
    { timeoutMs: 30_000 },
  );
  const operatorKey = operatorRun.stdout.trim().split("\n").at(-1) ?? "";
  const ceiling: Ceiling | null = process.env.BENCH_SIDE_BY_SIDE === "1" ? await startCeiling() : null;
  if (ceiling) rig.stopWith(() => ceiling.close());
  const service = await startService({ dataDir, environment: BENCH_ENVIRONMENT, weatherBaseUrl: standin.url });
  rig.stopWith(() => service.stop());
  const pid = service.pid;

  const report = async (step: string) => {
    const response = await fetch(`${service.url}/api/v1/admin/metrics`, {
      headers: { authorization: `Bearer ${operatorKey}` },
    });
    const exposition = await response.text();
    const metrics = memoryMetrics(exposition);
    const answered = [...exposition.matchAll(/^service_http_request_duration_seconds_count\{[^}]*\} (\d+)$/gm)].reduce(
      (total, match) => total + Number(match[1]),
      0,
    );
    const maps = mappings(pid);
    const top = Object.entries(maps)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([name, kb]) => `${name} ${(kb / 1024).toFixed(1)}`)
      .join(", ");
    console.log(
      `\n== ${step}: resident ${service.residentMb().toFixed(1)} MB, ${answered} answers (mappings, MB: ${top})`,
    );
    console.log(
      Object.entries(metrics)
        .map(([name, bytes]) => `  ${name} ${mib(bytes)}`)
        .join("\n"),
    );
  };

  await report("at start");
  const points = Number(process.env.BENCH_WEATHER_POINTS ?? 10_000);
  const warmUp = await warmDistinctPoints(service.url, points, 64);
  await report(
    `after ${points} points (${(warmUp.elapsedMs / 1000).toFixed(1)} s, failures ${JSON.stringify(warmUp.failures)})`,
  );
  if (process.env.BENCH_SKIP_STAMPEDE !== "1") {
    await stampedeColdPoint(service.url, standin.requests, 1_000);
    await report("after the stampede");
  }
  for (const route of [...WEATHER_ROUTES, ...storageRoutes(SAMPLE_PROFILE)]) {
    const headers: Record<string, string> = route.credentialed ? { authorization: `Bearer ${apiKey}` } : {};
    if (ceiling) {
      await compareRoute(route, {
        serviceUrl: service.url,
        apiKey,
        ceiling,
        load,
        plan: DEFAULT_PLAN,
      });
    } else {
      const seconds = DEFAULT_PLAN.warmUpSeconds + DEFAULT_PLAN.rounds * DEFAULT_PLAN.roundSeconds;
      const url = service.url + route.pathAndQuery;
      await load.run({ url, headers, connections: DEFAULT_PLAN.connections, durationSeconds: seconds });
    }
    await report(`after ${route.name}`);
  }
  const snapshotDir = process.env.BENCH_HEAP_SNAPSHOT_DIR;
  if (snapshotDir) {
    // The service must have been started with --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=<the same directory>:
    // a snapshot collects the whole heap first, so the heap used after it is what is alive.
    process.kill(pid, "SIGUSR2");
    let size = -1;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const files = readdirSync(snapshotDir).filter((name) => name.endsWith(".heapsnapshot"));
      const now = files.reduce((total, name) => total + statSync(join(snapshotDir, name)).size, 0);
      if (files.length > 0 && now === size) break;
      size = now;
    }
    await report("after a heap snapshot (a full collection)");
  }
} finally {
  await rig.close();
}
