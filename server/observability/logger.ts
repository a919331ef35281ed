import { destination as fileDestination, pino, type DestinationStream, type Logger } from "pino";
import { isoInstant } from "../time/iso-instant.ts";

export type { Logger };

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** How long a line may wait in the batch: a quiet server's warning must reach stderr soon, not at the next 4 KB. */
const FLUSH_EVERY_MS = 1000;

/**
 * The process's structured log: one JSON line per event on stderr (pino). Written asynchronously in batches, so a
 * request's line costs the request path little; the batch is written at least once a second, and `flush` before the
 * process exits.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const logger = pino(
    { level, base: undefined, timestamp: () => `,"time":"${isoInstant(Date.now())}"`, formatters: { level: (label) => ({ level: label }) } },
    destination ?? fileDestination({ dest: 2, sync: false, minLength: 4096 }),
  );
  if (!destination) setInterval(() => logger.flush(), FLUSH_EVERY_MS).unref();
  return logger;
}
