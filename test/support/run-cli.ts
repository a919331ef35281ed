import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The real `service` executable. */
export const BIN = fileURLToPath(new URL("../../cli/bin.js", import.meta.url));

/** Runs the real `service` executable, as an operator would (from `cwd`, by default this process's directory). */
export function runCli(args: string[], env: Record<string, string> = {}, options: { cwd?: string } = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    encoding: "utf8",
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

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
 * Starts the real CLI as a child process without blocking this process's event loop, so that a stand-in server or a
 * service in this process can answer it (`runCli`'s spawnSync would deadlock), and runs can go side by side.
 */
export function startCli(args: string[], env: Record<string, string> = {}, options: { cwd?: string } = {}): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
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

/** Runs the real CLI to the end without blocking (killed after `timeoutMs`). */
export async function runCliAsync(
  args: string[],
  env: Record<string, string> = {},
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<CliExit> {
  const running = startCli(args, env, options);
  const timer = setTimeout(() => running.child.kill("SIGKILL"), options.timeoutMs ?? 30_000);
  try {
    return await running.exited;
  } finally {
    clearTimeout(timer);
  }
}
