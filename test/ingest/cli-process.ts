import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export { BIN, type CliExit, type CliProcess, runCliAsync, startCli } from "../support/run-cli.ts";
export const SAMPLES_DIR = fileURLToPath(new URL("../../data/samples/", import.meta.url));

/** Polls until `check` is true (or throws after `timeoutMs`). */
export async function waitUntil(check: () => boolean, timeoutMs = 15_000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const temporaryDirs: string[] = [];

/** A fresh temporary directory, removed by `removeTempDirs` (call it in afterAll/afterEach). */
export function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `ingest-${label}-`));
  temporaryDirs.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of temporaryDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
