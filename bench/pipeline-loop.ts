/**
 * The pipeline's own cost per request, without HTTP: the app built as `service serve` builds it (its log written to
 * /dev/null in batches, as to stderr), each benchmark route asked once so its answer is kept, then asked again in a
 * loop. Steadier than the HTTP benchmark on a noisy machine, so a change to the request path can be judged by it;
 * what HTTP itself costs is in `npm run bench`.
 * Run: npx tsx bench/pipeline-loop.ts   (about a minute; BENCH_LOOP_SECONDS per route, default 2)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { destination } from "pino";
import { serviceConfigFrom } from "../cli/config.ts";
import { createApp } from "../server/app.ts";
import type { HeaderReader } from "../server/http/api-request.ts";
import { createLogger } from "../server/observability/logger.ts";
import { BENCH_ENVIRONMENT, prepareSampleDataDir } from "./service-benchmark/data-dir.ts";
import { SAMPLE_PROFILE, storageRoutes } from "./service-benchmark/routes.ts";

const seconds = Number(process.env.BENCH_LOOP_SECONDS ?? 3);
const ROUNDS = 6;
const root = mkdtempSync(join(tmpdir(), "pipeline-loop-"));
try {
  const dataDir = join(root, "samples");
  const { apiKey } = await prepareSampleDataDir(dataDir);
  // No load this loop makes meets these limits within one second: every request is counted, none refused. (A longer
  // window was met: a route asked for long enough measured 429 answers.)
  const limits = {
    SERVICE_RATE_LIMIT_WINDOW_SECONDS: "1",
    SERVICE_RATE_LIMIT_PUBLIC: "1000000",
    SERVICE_RATE_LIMIT_CREDENTIALED: "1000000",
  };
  const config = serviceConfigFrom({ ...process.env, ...limits, SERVICE_ENV: BENCH_ENVIRONMENT }, { dataDir });
  const logger = createLogger("info", destination({ dest: "/dev/null", sync: false, minLength: 4096 }), {
    requestBatchChars: 65_536,
  });
  const { pipeline } = createApp({ config, logger });
  for (const route of storageRoutes(SAMPLE_PROFILE)) {
    const queryAt = route.pathAndQuery.indexOf("?");
    const headers: HeaderReader = route.credentialed
      ? {
          get: (name) => (name === "authorization" ? `Bearer ${apiKey}` : null),
          has: (name) => name === "authorization",
        }
      : { get: () => null, has: () => false };
    const request = {
      method: "GET",
      pathname: queryAt === -1 ? route.pathAndQuery : route.pathAndQuery.slice(0, queryAt),
      search: queryAt === -1 ? "" : route.pathAndQuery.slice(queryAt),
      headers,
      peerAddress: "127.0.0.1",
    };
    const first = await pipeline.answer(request);
    if (first.status !== 200) throw new Error(`${route.name}: ${first.status}`);
    // CPU time rather than wall time, and the best of several rounds: other processes on the machine count less.
    let best = Number.POSITIVE_INFINITY;
    for (let round = 0; round < ROUNDS; round++) {
      const until = performance.now() + (seconds * 1000) / ROUNDS;
      const started = process.cpuUsage();
      let count = 0;
      while (performance.now() < until) {
        for (let i = 0; i < 1000; i++) pipeline.answer(request);
        count += 1000;
      }
      const used = process.cpuUsage(started);
      const last = await pipeline.answer(request);
      if (last.status !== 200) throw new Error(`${route.name}: ${last.status} after ${count} requests`);
      best = Math.min(best, (used.user + used.system) / count);
    }
    const perRequestUs = best;
    console.log(`${route.name.padEnd(44)} ${perRequestUs.toFixed(2)} µs`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
