import { startWorkerProcess } from "./worker-process.ts";

export interface LoadRequest {
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
}

export interface LoadSummary {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors, time-outs included. */
  errors: number;
  non2xx: number;
}

export interface LoadGenerator {
  run(request: LoadRequest): Promise<LoadSummary>;
  close(): Promise<void>;
}

/** Autocannon in its own process (load-worker.ts), so generating load never competes with the measuring script's loop. */
export async function startLoadGenerator(): Promise<LoadGenerator> {
  const worker = await startWorkerProcess(new URL("./load-worker.ts", import.meta.url));
  return {
    // Autocannon stops itself after the duration; the margin covers its start-up and the closing of 32 sockets.
    run: (request) => worker.ask<LoadSummary>(request, request.durationSeconds * 1000 + 30_000),
    close: () => worker.close(),
  };
}
