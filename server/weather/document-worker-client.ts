import { Worker, type ResourceLimits } from "node:worker_threads";
import type { UpstreamCallRecorder } from "../upstream/fetch-limited.ts";
import type { LocationRequest, LocationResult, MetClient } from "./met-client.ts";
import { WeatherUpstreamError } from "./upstream-error.ts";
import type { DocumentClientSettings, DocumentRequest, DocumentWorkerMessage } from "./document-worker-protocol.ts";
import type { PackedPayload } from "./stored-payload.ts";

/** A thread that asks MET for documents and reads them (document-worker.ts): its answers are packed payloads. */
export interface DocumentWorker {
  /** Rejects with WeatherUpstreamError, as the MET client does; also when the thread stops before it answers. */
  read(client: DocumentClientSettings, request: LocationRequest, recordCall?: UpstreamCallRecorder): Promise<LocationResult<PackedPayload>>;
}

/**
 * Bounds on the worker's heap. One document is read at a time: MET's are about 50 KB of JSON, and one of 4.9 MB (4,872
 * time steps, just under the default 5 MB ceiling on MET's bodies) was read and packed within these bounds. A worker
 * that runs out stops with its requests failed, and the next request starts a fresh one.
 */
export const DOCUMENT_WORKER_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 2 };

interface Pending {
  resolve: (result: LocationResult<PackedPayload>) => void;
  reject: (error: WeatherUpstreamError) => void;
  recordCall?: UpstreamCallRecorder;
}

/** The thread starts on the first request, so a process that never asks MET never pays for it. */
export function createDocumentWorker(limits: ResourceLimits = DOCUMENT_WORKER_LIMITS): DocumentWorker {
  const pending = new Map<number, Pending>();
  let lastId = 0;
  let worker: Worker | undefined;

  function settle(message: DocumentWorkerMessage): void {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    if ("call" in message) {
      waiting.recordCall?.(message.call);
      return;
    }
    pending.delete(message.id);
    if ("result" in message) waiting.resolve(message.result);
    else waiting.reject(new WeatherUpstreamError(message.failure.code, message.failure.message, message.failure.retryAfterMs));
  }

  function running(): Worker {
    if (worker) return worker;
    const thread = startWorker(limits);
    // The HTTP server keeps the process alive; an idle worker must not keep it from exiting.
    thread.unref();
    thread.on("message", settle);
    let reason = "it exited";
    thread.on("error", (error) => {
      reason = error.message;
    });
    thread.on("exit", () => {
      worker = undefined;
      const failure = new WeatherUpstreamError("UPSTREAM_UNAVAILABLE", `MET's document worker stopped: ${reason}`);
      for (const waiting of pending.values()) waiting.reject(failure);
      pending.clear();
    });
    worker = thread;
    return thread;
  }

  return {
    read(client, request, recordCall) {
      return new Promise((resolve, reject) => {
        lastId += 1;
        pending.set(lastId, { resolve, reject, recordCall });
        running().postMessage({ id: lastId, client, request } satisfies DocumentRequest);
      });
    },
  };
}

let processWorker: DocumentWorker | undefined;

/** One document worker serves every weather source of the process (the server has one; a test process many). */
export function processDocumentWorker(): DocumentWorker {
  processWorker ??= createDocumentWorker();
  return processWorker;
}

export interface DocumentWorkerClientOptions {
  client: DocumentClientSettings;
  recordCall?: UpstreamCallRecorder;
  /** Default the process's document worker. */
  worker?: DocumentWorker;
}

/** A MET client whose documents are read on the document worker. */
export function createDocumentWorkerClient(options: DocumentWorkerClientOptions): MetClient<PackedPayload> {
  const worker = options.worker ?? processDocumentWorker();
  return { fetchLocation: (request) => worker.read(options.client, request, options.recordCall) };
}

function startWorker(resourceLimits: ResourceLimits): Worker {
  const compiled = import.meta.url.endsWith(".js");
  const entry = new URL(compiled ? "./document-worker.js" : "./document-worker.ts", import.meta.url);
  if (compiled) return new Worker(entry, { resourceLimits });
  // Run from the TypeScript sources (tests, `npm run dev`): Node 20 does not pass tsx's loader on to worker threads,
  // so the thread registers it before it imports its entry.
  const tsx = import.meta.resolve("tsx/esm/api");
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { eval: true, resourceLimits });
}
