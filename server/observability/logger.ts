import { destination as fileDestination, pino, type DestinationStream, type Logger } from "pino";
import { isoInstant } from "../time/iso-instant.ts";

export type { Logger };

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** How long a line may wait in the batch: a quiet server's warning must reach stderr soon, not at the next 4 KB. */
const FLUSH_EVERY_MS = 1000;
/** Request lines gathered before they are handed to the destination in one write. */
const REQUEST_BATCH_CHARS = 65_536;

/** The fields of one request's line (pipeline.ts). */
export interface RequestLine {
  requestId: string;
  route: string;
  status: number;
  durationMs: number;
  cache?: string;
}

/**
 * Request lines waiting for the destination. They join the destination in one write per batch, and any other line
 * pino writes takes them along first (its `streamWrite` hook), so the log's order is the order things happened in.
 */
class PendingRequestLines {
  private text = "";
  private readonly destination: DestinationStream;
  private readonly batchChars: number;
  constructor(destination: DestinationStream, batchChars: number) {
    this.destination = destination;
    this.batchChars = batchChars;
  }

  add(line: string): void {
    this.text += line;
    if (this.text.length >= this.batchChars) this.drain();
  }

  take(): string {
    const text = this.text;
    this.text = "";
    return text;
  }

  drain(): void {
    if (this.text !== "") this.destination.write(this.take());
  }
}

const requestLinesOf = new WeakMap<Logger, PendingRequestLines>();

/**
 * The process's structured log: one JSON line per event on stderr (pino). Written asynchronously in batches, so a
 * request's line costs the request path little; the batch is written at least once a second, and `flushLog` before
 * the process exits. A caller's own destination (tests) gets every line as it is logged, unless it asks for batches.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream, options: { requestBatchChars?: number } = {}): Logger {
  const target = destination ?? fileDestination({ dest: 2, sync: false, minLength: 4096 });
  const requestLines = new PendingRequestLines(target, options.requestBatchChars ?? (destination ? 0 : REQUEST_BATCH_CHARS));
  const logger = pino(
    {
      level, base: undefined, timestamp: () => `,"time":"${isoInstant(Date.now())}"`, formatters: { level: (label) => ({ level: label }) },
      hooks: { streamWrite: (line) => requestLines.take() + line },
    },
    target,
  );
  requestLinesOf.set(logger, requestLines);
  if (!destination) setInterval(() => flushLog(logger), FLUSH_EVERY_MS).unref();
  return logger;
}

/**
 * One request's line at `info`, in the form pino gives every other line. Written from a template rather than through
 * pino's generic serialiser, which costs a busy server more than the rest of a small answer: every value is either a
 * number or text of a known alphabet (a UUID, a route name of the route table, a cache outcome).
 */
export function logRequest(logger: Logger, line: RequestLine): void {
  const requestLines = requestLinesOf.get(logger);
  if (!requestLines) return void logger.info({ ...line }, "request");
  const cache = line.cache === undefined ? "" : `,"cache":"${line.cache}"`;
  requestLines.add(
    `{"level":"info","time":"${isoInstant(Date.now())}","requestId":"${line.requestId}","route":"${line.route}","status":${line.status},"durationMs":${line.durationMs}${cache},"msg":"request"}\n`,
  );
}

/** Writes what the log holds: the request lines gathered, then pino's own batch. */
export function flushLog(logger: Logger, done?: (error?: Error) => void): void {
  requestLinesOf.get(logger)?.drain();
  logger.flush(done);
}
