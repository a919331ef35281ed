import type { ResourceLimits, Worker } from "node:worker_threads";
import { startWorker } from "../threads/start-worker.ts";
import type { UpstreamCallRecorder } from "../upstream/fetch-limited.ts";
import type { DocumentClientSettings, DocumentRequest, DocumentWorkerMessage } from "./document-worker-protocol.ts";
import type { LocationRequest, LocationResult, MetClient } from "./met-client.ts";
import type { PackedPayload } from "./stored-payload.ts";
import { WeatherUpstreamError } from "./upstream-error.ts";
import { requireUserAgent } from "./weather-settings.ts";

/** The thread that asks MET for documents and reads them into packed payloads (document-worker.ts). */
export interface DocumentWorker {
  /** Rejects as the MET client does, also when the thread stops or is stuck; a plain Error for our own defect. */
  read(
    client: DocumentClientSettings,
    request: LocationRequest,
    recordCall?: UpstreamCallRecorder,
  ): Promise<LocationResult<PackedPayload>>;
  /** From the first request until the thread has been idle for its idle time (or stopped). */
  readonly running: boolean;
}

/** Beyond the client's time-out, how long the worker may take before it is judged stuck and replaced. */
const WORKER_GRACE_MS = 5_000;

/** A quiet minute gives back the worker's memory; a trickle of misses keeps it from restarts (docs/performance.md). */
const DEFAULT_WORKER_IDLE_MS = 60_000;

interface Pending {
  resolve: (result: LocationResult<PackedPayload>) => void;
  reject: (error: Error) => void;
  recordCall?: UpstreamCallRecorder;
  deadline: NodeJS.Timeout;
  /** The thread asked: only its own requests fail when it stops. */
  thread: Worker;
}

/** The thread starts on the first request, so a process that never asks MET never pays for it. */
export function createDocumentWorker(limits: ResourceLimits, idleMs: number = DEFAULT_WORKER_IDLE_MS): DocumentWorker {
  const pending = new Map<number, Pending>();
  let lastId = 0;
  let worker: Worker | undefined;
  let idleTimer: NodeJS.Timeout | undefined;

  function settled(id: number): Pending | undefined {
    const waiting = pending.get(id);
    if (!waiting) return undefined;
    pending.delete(id);
    clearTimeout(waiting.deadline);
    if (pending.size === 0 && worker) {
      // Waiting requests keep the process alive; an idle worker must not keep it from exiting.
      worker.unref();
      idleTimer = setTimeout(stopIdle, idleMs).unref();
    }
    return waiting;
  }

  function stopIdle(): void {
    if (pending.size > 0 || !worker) return;
    void worker.terminate();
    worker = undefined;
  }

  function answered(message: DocumentWorkerMessage): void {
    if ("call" in message) return void pending.get(message.id)?.recordCall?.(message.call);
    const waiting = settled(message.id);
    if (!waiting) return;
    if ("result" in message) return waiting.resolve(message.result);
    if ("failure" in message) {
      const { code, message: text, retryAfterMs, underlying } = message.failure;
      return waiting.reject(new WeatherUpstreamError(code, text, retryAfterMs, underlying));
    }
    const { defect } = message;
    waiting.reject(
      Object.assign(new Error(`MET's document worker failed: ${defect.message}`), { stack: defect.stack }),
    );
  }

  function running(): Worker {
    if (worker) return worker;
    const thread = startWorker(import.meta.url, "document-worker", { resourceLimits: limits });
    let reason = "it exited";
    thread.on("message", answered);
    thread.on("messageerror", (error) => {
      reason = `a message could not be read (${error.message})`;
      void thread.terminate();
    });
    thread.on("error", (error) => (reason = error.message));
    thread.on("exit", () => {
      if (worker === thread) worker = undefined;
      const failure = new WeatherUpstreamError("UPSTREAM_UNAVAILABLE", `MET's document worker stopped: ${reason}`);
      for (const [id, waiting] of [...pending]) if (waiting.thread === thread) settled(id)?.reject(failure);
    });
    worker = thread;
    return thread;
  }

  /** Stuck, not slow: the client's own time-out has long passed. A fresh worker serves the next request. */
  function stuck(id: number, thread: Worker): void {
    settled(id)?.reject(new WeatherUpstreamError("UPSTREAM_TIMEOUT", "MET's document worker did not answer in time"));
    if (worker === thread) worker = undefined;
    void thread.terminate();
  }

  return {
    read(client, request, recordCall) {
      return new Promise((resolve, reject) => {
        const id = ++lastId;
        clearTimeout(idleTimer);
        try {
          const thread = running();
          const deadline = setTimeout(() => stuck(id, thread), client.timeoutMs + WORKER_GRACE_MS);
          pending.set(id, { resolve, reject, recordCall, deadline, thread });
          thread.ref();
          thread.postMessage({ id, client, request } satisfies DocumentRequest);
        } catch (error) {
          settled(id);
          const message = `MET's document worker could not be asked: ${(error as Error).message}`;
          reject(new WeatherUpstreamError("UPSTREAM_UNAVAILABLE", message));
        }
      });
    },
    get running() {
      return worker !== undefined;
    },
  };
}

const processWorkers = new Map<number, DocumentWorker>();

/**
 * One document worker serves every weather source of the process with that body ceiling. 10 MB of old generation per
 * MB of body ceiling, at least 48 (docs/performance.md); running out fails requests.
 */
export function processDocumentWorker(maxBodyBytes: number): DocumentWorker {
  const maxOldGenerationSizeMb = Math.max(48, Math.ceil(maxBodyBytes / 1_000_000) * 10);
  const worker =
    processWorkers.get(maxBodyBytes) ?? createDocumentWorker({ maxOldGenerationSizeMb, maxYoungGenerationSizeMb: 2 });
  processWorkers.set(maxBodyBytes, worker);
  return worker;
}

export interface DocumentWorkerClientOptions {
  client: DocumentClientSettings;
  recordCall?: UpstreamCallRecorder;
  /** Default the process's document worker. */
  worker?: DocumentWorker;
}

/** A MET client whose documents are read on the document worker. Refuses a blank User-Agent when it is built. */
export function createDocumentWorkerClient(options: DocumentWorkerClientOptions): MetClient<PackedPayload> {
  requireUserAgent(options.client.userAgent);
  const worker = options.worker ?? processDocumentWorker(options.client.maxBytes);
  return { fetchLocation: (request) => worker.read(options.client, request, options.recordCall) };
}
