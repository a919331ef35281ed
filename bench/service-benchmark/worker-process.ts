import { type ChildProcess, fork } from "node:child_process";

/**
 * A TypeScript module run as its own Node process, asked questions over IPC one reply per question. The load
 * generator and the ceiling server live in such processes so that neither shares an event loop with the other or
 * with the service: on one loop, each would steal the other's time and the comparison would mean nothing.
 */
export interface WorkerProcess {
  ask<Reply>(request: object, timeoutMs: number): Promise<Reply>;
  close(): Promise<void>;
}

interface Envelope {
  id: number;
  reply?: unknown;
  error?: string;
}

export async function startWorkerProcess(module: URL, readyTimeoutMs = 20_000): Promise<WorkerProcess> {
  const child = fork(module, [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const pending = new Map<number, { resolve: (reply: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;

  child.on("message", (message: Envelope) => {
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.error !== undefined) waiter.reject(new Error(message.error));
    else waiter.resolve(message.reply);
  });
  child.on("exit", (code, signal) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`${module.pathname} exited (${code ?? signal})`));
    pending.clear();
  });

  function ask<Reply>(request: object, timeoutMs: number): Promise<Reply> {
    const id = nextId++;
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${module.pathname} gave no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, {
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply as Reply);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      child.send({ id, request });
    });
  }

  // Id 0 is the child's "ready" message, sent once its module has loaded.
  await new Promise<void>((resolve, reject) => {
    pending.set(0, { resolve: () => resolve(), reject });
    setTimeout(
      () => reject(new Error(`${module.pathname} did not start within ${readyTimeoutMs} ms`)),
      readyTimeoutMs,
    ).unref();
  });
  return { ask, close: () => stopChild(child) };
}

/** The child side: answers each request with `handle`, after announcing that it is ready. */
export function serveWorkerRequests(handle: (request: never) => Promise<unknown>): void {
  process.on("message", (message: { id: number; request: never }) => {
    handle(message.request).then(
      (reply) => process.send!({ id: message.id, reply }),
      (error: unknown) =>
        process.send!({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  // The parent closing the channel means the benchmark is over (or crashed): nothing is left to serve.
  process.on("disconnect", () => process.exit(0));
  process.send!({ id: 0 });
}

export function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
