import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../cli/bin.js", import.meta.url));

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
