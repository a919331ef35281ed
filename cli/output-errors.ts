import { EXIT_CODES } from "./usage.ts";

/**
 * What a command does when its output cannot be written. A reader that closed the pipe (`service openapi | head`)
 * has read what it wanted: the command writes no more there and goes on quietly to its end and its own exit code.
 * It is not ended at the write: `ingest --publish-to … | head` still has its index to upload after the summary it
 * prints. The stream, destroyed by the failure, drops later writes without another error. Any other failure to write
 * (a full disk under `> file`) is said in one line, and the command, likewise run to its end, exits with code 1.
 * Without this, Node reports both as an unhandled 'error' event with its stack.
 *
 * stderr carries progress and diagnostics: when it cannot be written (`service ingest 2>&1 | head` once head has
 * quit) the command likewise goes on, writing no more there; there is nowhere left to say that failure. (The JSON log
 * of `ingest --log-format json` writes fd 2 through pino, which stops logging on EPIPE by itself.)
 */
export function handleOutputErrors(): void {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (ownWriteFailures || error.code === "EPIPE" || outputFailed) return;
    // Said once, and the command still runs to its end: `ingest --publish-to … > full-disk` has its index to upload
    // and its lock to release after the summary it could not write. The exit code says the output was lost.
    outputFailed = true;
    process.stderr.write(`error: the output could not be written: ${error.message}\n`);
    // Set as the process exits, so a code the command sets after this failure does not hide it.
    process.once("exit", () => {
      process.exitCode = EXIT_CODES.failure;
    });
  });
  process.stderr.on("error", () => {});
}

let outputFailed = false;

let ownWriteFailures = false;

/**
 * Writes a command's result to stdout and tells whether it got there. For a command whose output cannot be printed
 * again (the secret of `keys create`): from its first call the command answers for a failed write itself, so this
 * process is not ended at the write, before the command can undo what the lost output was for.
 */
export function writeResult(text: string): Promise<Error | null> {
  ownWriteFailures = true;
  return new Promise((resolve) => process.stdout.write(text, (error) => resolve(error ?? null)));
}
