import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's own directory (run-dir.ts), read with `inject("runDir")`. */
    runDir: string;
  }
}

/**
 * A directory that lives as long as the test run, for what a worker process builds once and keeps for every test file
 * it runs (they share the process: isolate: false in vitest.config.ts). Removed when the run ends: the workers are
 * stopped with a signal, so they cannot clean up after themselves.
 */
export default function runDir(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "service-test-run-"));
  project.provide("runDir", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
