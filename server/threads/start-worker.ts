import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * A worker thread running the module `name` beside the caller (`callerUrl`: its `import.meta.url`), compiled or not
 * as the caller runs. Node 20 does not pass tsx's loader on to workers, so one run from source registers it first.
 */
export function startWorker(callerUrl: string, name: string, options: Omit<WorkerOptions, "eval"> = {}): Worker {
  const compiled = callerUrl.endsWith(".js");
  const entry = new URL(`./${name}.${compiled ? "js" : "ts"}`, callerUrl);
  if (compiled) return new Worker(entry, options);
  const tsx = import.meta.resolve("tsx/esm/api");
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
