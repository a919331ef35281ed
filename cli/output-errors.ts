import { EXIT_CODES } from "./usage.ts";

/**
 * What a command does when its output cannot be written. A reader that closed the pipe (`service openapi | head`)
 * has read what it wanted: the command ends at once and quietly, as Unix tools do, with exit code 0 (or the code the
 * command had already set). Any other failure to write (a full disk under `> file`) is said in one line, exit code 1.
 * Without this, Node reports both as an unhandled 'error' event with its stack.
 */
export function handleOutputErrors(): void {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit();
    process.stderr.write(`error: the output could not be written: ${error.message}\n`);
    process.exit(EXIT_CODES.failure);
  });
}
