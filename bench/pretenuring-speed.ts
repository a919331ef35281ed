/**
 * Whether serving without allocation-site pretenuring costs speed, and what it does to resident memory: two services over the same sample index, one
 * started with SERVING_NODE_FLAGS and one without, each after the same weather warm-up and stampede (what makes V8
 * pretenure), then loaded in turn, round by round, on a few routes. Prints requests per second per round and
 * each side's resident memory after each route and after a pause.
 * Run: npx tsx bench/pretenuring-speed.ts   (about 3 minutes; BENCH_WEATHER_POINTS, default 3,000; BENCH_ROUNDS, 6)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMetStandin } from "../cli/demo/met-standin.ts";
import { buildService, runServiceCli } from "./service-benchmark/cli-runner.ts";
import { DEFAULT_PLAN } from "./service-benchmark/compare-route.ts";
import { BENCH_ENVIRONMENT, prepareSampleDataDir } from "./service-benchmark/data-dir.ts";
import { startLoadGenerator } from "./service-benchmark/load-generator.ts";
import { SAMPLE_PROFILE, storageRoutes, WEATHER_ROUTES } from "./service-benchmark/routes.ts";
import { startService } from "./service-benchmark/service-process.ts";
import { stampedeColdPoint, warmDistinctPoints } from "./service-benchmark/weather-points.ts";
import { SERVING_NODE_FLAGS } from "./serving-node-options.ts";

const root = mkdtempSync(join(tmpdir(), "pretenuring-speed-"));
const closers: Array<() => Promise<void>> = [];
try {
  if (process.env.BENCH_SKIP_BUILD !== "1") await buildService();
  const dataDir = join(root, "samples");
  const prepared = await prepareSampleDataDir(dataDir);
  await runServiceCli(["places", "--data-dir", dataDir], { timeoutMs: 60_000 });
  const standin = await startMetStandin({ host: "127.0.0.1", port: 0, latencyMs: 200 });
  closers.push(() => standin.close());
  const load = await startLoadGenerator();
  closers.push(() => load.close());
  const sides = [
    { name: "with the flags", nodeFlags: SERVING_NODE_FLAGS },
    { name: "without", nodeFlags: [] },
  ];
  const services = [];
  for (const side of sides) {
    const service = await startService({
      dataDir,
      environment: BENCH_ENVIRONMENT,
      weatherBaseUrl: standin.url,
      ...side,
    });
    closers.push(() => service.stop());
    services.push({ ...side, service });
  }
  const points = Number(process.env.BENCH_WEATHER_POINTS ?? 3_000);
  await Promise.all(services.map(({ service }) => warmDistinctPoints(service.url, points, 64)));
  for (const { service } of services) await stampedeColdPoint(service.url, standin.requests, 1_000);
  const warm = services.map(({ name, service }) => `${name} ${service.residentMb().toFixed(0)} MB`).join(", ");
  console.log(`after ${points} points and the stampede: resident ${warm}`);
  const routes = [
    WEATHER_ROUTES[0]!,
    WEATHER_ROUTES[3]!,
    ...storageRoutes(SAMPLE_PROFILE).filter((r) => r.name === "status"),
  ];
  const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
  for (const route of routes) {
    const headers: Record<string, string> = route.credentialed ? { authorization: `Bearer ${prepared.apiKey}` } : {};
    const rates: Record<string, number[]> = Object.fromEntries(services.map(({ name }) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      // Alternating which goes first, so drift hits both alike.
      const order = round % 2 === 0 ? services : [...services].reverse();
      for (const { name, service } of order) {
        const url = service.url + route.pathAndQuery;
        const result = await load.run({ url, headers, connections: DEFAULT_PLAN.connections, durationSeconds: 2 });
        rates[name]!.push(Math.round(result.requestsPerSecond));
      }
    }
    const resident = services.map(({ name, service }) => `${name} ${service.residentMb().toFixed(0)} MB`).join(", ");
    console.log(`after ${route.name}: resident ${resident}`);
    for (const [name, values] of Object.entries(rates)) {
      const sorted = [...values].sort((a, b) => a - b);
      console.log(`${route.name}, ${name}: median ${sorted[sorted.length >> 1]} req/s, rounds ${values.join(" ")}`);
    }
  }
  // V8 collects an idle heap on its own (its memory reducer), so what is left after a pause is what is alive.
  await new Promise((resolve) => setTimeout(resolve, 30_000));
  for (const { name, service } of services)
    console.log(`${name}: resident ${service.residentMb().toFixed(0)} MB after 30 s idle`);
} finally {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
}
