import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The real `service` executable (same as test/support/run-cli.ts). */
export const BIN = fileURLToPath(new URL("../../cli/bin.js", import.meta.url));
export const SAMPLES_DIR = fileURLToPath(new URL("../../data/samples/", import.meta.url));

export interface CliExit {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliProcess {
  child: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  exited: Promise<CliExit>;
}

/**
 * Starts the real CLI as a child process without blocking this process's event loop, so that a stand-in
 * server or a service in this process can answer it (spawnSync, as in run-cli.ts, would deadlock).
 */
export function startCli(args: string[], env: Record<string, string> = {}): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<CliExit>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
  return { child, pid: child.pid!, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Runs the real CLI to the end (killed after `timeoutMs`). */
export async function runCliAsync(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<CliExit> {
  const running = startCli(args, env);
  const timer = setTimeout(() => running.child.kill("SIGKILL"), timeoutMs);
  try {
    return await running.exited;
  } finally {
    clearTimeout(timer);
  }
}

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
