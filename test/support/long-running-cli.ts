import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../cli/bin.js", import.meta.url));

export interface LongRunningCli {
  child: ChildProcess;
  /** Resolves with the first match of `pattern` in stdout, waiting for it to be printed; rejects on exit or time-out. */
  waitForStdout(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Sends `signal` and resolves with the exit code (null when the signal itself ended the process). */
  stop(signal: NodeJS.Signals): Promise<number | null>;
  stdout(): string;
  stderr(): string;
}

/**
 * Starts the real `service` executable for a command that runs until signalled (serve, demo-met), as an operator
 * would from a terminal; runCli's spawnSync cannot, since it waits for an exit that never comes.
 */
export function startCli(args: string[], env: Record<string, string> = {}): LongRunningCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  function waitForStdout(pattern: RegExp, timeoutMs = 15_000): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = out.match(pattern);
        if (match) finish(() => resolve(match));
      };
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(new Error(`no ${pattern} on stdout within ${timeoutMs} ms; stdout: ${out}; stderr: ${err}`)),
          ),
        timeoutMs,
      );
      const onExit = (code: number | null) =>
        finish(() => reject(new Error(`exited (${code}) before printing ${pattern}; stdout: ${out}; stderr: ${err}`)));
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        child.stdout!.off("data", check);
        child.off("exit", onExit);
        settle();
      };
      child.stdout!.on("data", check);
      child.once("exit", onExit);
      check();
    });
  }

  return {
    child,
    waitForStdout,
    stop(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    stdout: () => out,
    stderr: () => err,
  };
}
