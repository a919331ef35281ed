import { runServiceCli } from "./service-benchmark/cli-runner.ts";
import { DEFAULT_PLAN } from "./service-benchmark/compare-route.ts";
import { BENCH_ENVIRONMENT } from "./service-benchmark/data-dir.ts";
import { SAMPLE_PROFILE, storageRoutes, WEATHER_ROUTES } from "./service-benchmark/routes.ts";
import { startSampleRig } from "./service-benchmark/sample-rig.ts";
import { startService } from "./service-benchmark/service-process.ts";
import { stampedeColdPoint, warmDistinctPoints } from "./service-benchmark/weather-points.ts";
import { SERVING_NODE_FLAGS } from "./serving-node-options.ts";

const rig = await startSampleRig("pretenuring-speed");
const { dataDir, apiKey, standin, load } = rig;
try {
  await runServiceCli(["places", "--data-dir", dataDir], { timeoutMs: 60_000 });
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
    rig.stopWith(() => service.stop());
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
    const headers: Record<string, string> = route.credentialed ? { authorization: `Bearer ${apiKey}` } : {};
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
  await rig.close();
}
