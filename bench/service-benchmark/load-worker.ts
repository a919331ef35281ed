/**
 * Child process: runs one autocannon load per request from the parent (see worker-process.ts) and answers with the
 * few numbers the report needs. Started by load-generator.ts; not meant to be run by hand.
 */
import autocannon from "autocannon";
import type { LoadRequest, LoadSummary } from "./load-generator.ts";
import { serveWorkerRequests } from "./worker-process.ts";

async function runLoad(request: LoadRequest): Promise<LoadSummary> {
  const result = await autocannon({
    url: request.url,
    headers: request.headers,
    connections: request.connections,
    duration: request.durationSeconds,
    // autocannon ends a run at its next sample after the duration: sampled each second, a 0.6 s run would take 1 s.
    sampleInt: 100,
  });
  return {
    // Completed requests over the measured time, rather than the mean of per-second samples that a partial last second skews.
    requestsPerSecond: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

serveWorkerRequests(runLoad);
