/**
 * CPU time per request of the service, h3 answering the same bytes and the bare node:http ceiling, read from the
 * kernel's counts for each process (/proc/PID/stat) around the same load. Steadier than requests per second on a busy
 * machine: another process taking a core lowers a side's rate, much less the CPU each of its requests costs.
 * Run: npx tsx bench/cpu-per-request.ts   (about a minute; BENCH_ROUTES, comma-separated route names, picks routes;
 * BENCH_SKIP_BUILD=1 uses dist/ as it is; BENCH_NODE_FLAGS, space-separated, replaces the serving flags on node's
 * command line, to compare Node options; SERVICE_* variables reach the service; BENCH_ROUNDS, default 3, more rounds
 * on a busy machine). The last column is the median over rounds of service ÷ h3 in the same round: the two sides
 * of one round meet much the same load from other processes, so it moves less than either side's best.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { captureAnswer } from "./service-benchmark/capture.ts";
import { startCeiling } from "./service-benchmark/ceiling.ts";
import { BENCH_ENVIRONMENT } from "./service-benchmark/data-dir.ts";
import { SAMPLE_PROFILE, storageRoutes, WEATHER_ROUTES } from "./service-benchmark/routes.ts";
import { startSampleRig } from "./service-benchmark/sample-rig.ts";
import { startService } from "./service-benchmark/service-process.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROUND_SECONDS = 2;
/** The kernel counts CPU time in ticks of 10 ms (USER_HZ 100). */
const MICROSECONDS_PER_TICK = 10_000;

/** User and system CPU ticks of the processes so far. */
function cpuTicks(pids: readonly number[]): number {
  return pids.reduce((total, pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return total + Number(fields[11]) + Number(fields[12]);
  }, 0);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const rig = await startSampleRig("cpu-per-request");
const { dataDir, apiKey, standin, load } = rig;
try {
  const ceiling = await startCeiling();
  rig.stopWith(() => ceiling.close());
  const ceilingPids = execFileSync("pgrep", ["-f", "ceiling-server.ts"]).toString().trim().split("\n").map(Number);
  const nodeFlags = process.env.BENCH_NODE_FLAGS?.split(" ").filter(Boolean);
  const service = await startService({
    dataDir,
    environment: BENCH_ENVIRONMENT,
    weatherBaseUrl: standin.url,
    nodeFlags,
  });
  rig.stopWith(() => service.stop());

  const wanted = process.env.BENCH_ROUTES?.split(",");
  const routes = [...WEATHER_ROUTES, ...storageRoutes(SAMPLE_PROFILE)].filter(
    (route) => !wanted || wanted.includes(route.name),
  );
  console.log(
    `${"route".padEnd(44)} µs of CPU per request: service | h3 | ceiling (best of ${ROUNDS} rounds) | service ÷ h3`,
  );
  for (const route of routes) {
    const headers: Record<string, string> = route.credentialed ? { authorization: `Bearer ${apiKey}` } : {};
    await ceiling.replay(route.pathAndQuery, await captureAnswer(service.url + route.pathAndQuery, headers));
    const sides = [
      { base: service.url, pids: [service.pid], best: Number.POSITIVE_INFINITY, last: 0 },
      { base: ceiling.h3Url, pids: ceilingPids, best: Number.POSITIVE_INFINITY, last: 0 },
      { base: ceiling.url, pids: ceilingPids, best: Number.POSITIVE_INFINITY, last: 0 },
    ];
    const ratios: number[] = [];
    for (let round = 0; round <= ROUNDS; round++) {
      for (const side of sides) {
        const before = cpuTicks(side.pids);
        const url = side.base + route.pathAndQuery;
        const result = await load.run({ url, headers, connections: 32, durationSeconds: ROUND_SECONDS });
        const requests = result.requestsPerSecond * ROUND_SECONDS;
        // The first round warms each side up and is not counted.
        side.last = ((cpuTicks(side.pids) - before) * MICROSECONDS_PER_TICK) / requests;
        if (round > 0) side.best = Math.min(side.best, side.last);
      }
      if (round > 0) ratios.push(sides[0]!.last / sides[1]!.last);
    }
    const best = sides.map((side) => side.best.toFixed(1).padStart(6)).join(" | ");
    console.log(`${route.name.padEnd(44)} ${best} | ${median(ratios).toFixed(2)}`);
  }
} finally {
  await rig.close();
}
