import { type DestinationStream, destination as fileDestination, type Logger, pino } from "pino";
import { isoInstant } from "../time/iso-instant.ts";

export type { Logger };

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** How long a line may wait in pino's buffer: a quiet server's warning must reach stderr soon, not at the next 4 KB. */
const FLUSH_EVERY_MS = 1000;

/** The fields of one request's line (envelope.ts). */
export interface RequestLine {
  requestId: string;
  route: string;
  status: number;
  durationMs: number;
  cache?: string;
}

/**
 * The process's structured log: one JSON line per event on stderr (pino), written asynchronously in 4 KB batches, at
 * least once a second, and by `flushLog` before the process exits. A caller's own destination (tests) gets every line
 * as it is logged.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const target = destination ?? fileDestination({ dest: 2, sync: false, minLength: 4096 });
  const logger = pino(
    {
      level,
      base: undefined,
      timestamp: () => `,"time":"${isoInstant(Date.now())}"`,
      formatters: { level: (label) => ({ level: label }) },
    },
    target,
  );
  if (!destination) setInterval(() => logger.flush(), FLUSH_EVERY_MS).unref();
  return logger;
}

/** One request's line at `info`. */
export function logRequest(logger: Logger, line: RequestLine): void {
  logger.info(line, "request");
}

/** Writes what the log holds. */
export function flushLog(logger: Logger, done?: (error?: Error) => void): void {
  logger.flush(done);
}
