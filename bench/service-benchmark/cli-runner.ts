import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = fileURLToPath(new URL("../../cli/bin.js", import.meta.url));
/** GNU time reports the peak resident memory of the process it runs, measured by the kernel. */
const GNU_TIME = "/usr/bin/time";

export interface CommandRun {
  stdout: string;
  stderr: string;
  elapsedMs: number;
  /** Peak resident memory of the child, when GNU time was there to measure it. */
  peakRssMb: number | null;
}

export interface CommandOptions {
  env?: Record<string, string>;
  timeoutMs: number;
  measurePeakMemory?: boolean;
}

/** Runs the real `service` executable (cli/bin.js, the compiled build), as an operator would. */
export function runServiceCli(args: string[], options: CommandOptions): Promise<CommandRun> {
  return runCommand(process.execPath, [BIN, ...args], options);
}

/**
 * cli/bin.js runs dist/, so the benchmark compiles first: otherwise it would measure whatever build happened to be
 * lying around rather than the source being worked on.
 */
export async function buildService(): Promise<CommandRun> {
  return runCommand(
    process.execPath,
    [fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url)), "-p", "tsconfig.build.json"],
    { timeoutMs: 180_000 },
  );
}

export function runCommand(command: string, args: string[], options: CommandOptions): Promise<CommandRun> {
  const measured = options.measurePeakMemory === true && existsSync(GNU_TIME);
  const [file, argv] = measured ? [GNU_TIME, ["-v", command, ...args]] : [command, args];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, {
      cwd: PACKAGE_ROOT,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const elapsedMs = performance.now() - started;
      const peak = measured ? /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr) : null;
      if (code !== 0) {
        const reason = signal
          ? `was killed (${signal}${signal === "SIGKILL" ? `, over ${options.timeoutMs} ms` : ""})`
          : `exited ${code}`;
        return reject(new Error(`${[command, ...args].join(" ")} ${reason}\n${stderr.slice(-2000)}`));
      }
      resolve({ stdout, stderr, elapsedMs, peakRssMb: peak ? Number(peak[1]) / 1024 : null });
    });
  });
}

/** `keys create` prints the secret as the last line of stdout. */
export async function createApiKey(dataDir: string, environment: string): Promise<string> {
  const run = await runServiceCli(
    [
      "keys",
      "--data-dir",
      dataDir,
      "create",
      "--scopes",
      "weather:read,economics:read",
      "--env",
      environment,
      "--name",
      "bench",
    ],
    { timeoutMs: 30_000 },
  );
  const secret = run.stdout.trim().split("\n").at(-1);
  if (!secret) throw new Error("keys create printed no secret");
  return secret;
}
