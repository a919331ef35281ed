import { type DestinationStream, destination as fileDestination, type Logger, pino } from "pino";
import { isoInstant } from "../time/iso-instant.ts";
import type { LogLevel } from "./log-levels.ts";

export type { Logger };

/** A quiet server's warning must reach stderr soon, not at the next 4 KB. */
const FLUSH_EVERY_MS = 1000;
const REQUEST_BATCH_CHARS = 65_536;
/** Room past a full batch for the line that fills it (ours are some 300 bytes; a longer one grows the buffer). */
const LINE_ROOM_BYTES = 1024;

/**
 * Request lines waiting for the destination, kept as bytes: joined text would outlive young-generation collections.
 * One write per batch; any other line pino writes takes them along first (`streamWrite`), so the log stays in order.
 */
class PendingRequestLines {
  private bytes: Buffer;
  private length = 0;
  private readonly destination: DestinationStream;
  private readonly batchBytes: number;
  constructor(destination: DestinationStream, batchBytes: number) {
    this.destination = destination;
    this.batchBytes = batchBytes;
    this.bytes = Buffer.allocUnsafe(batchBytes + LINE_ROOM_BYTES);
  }

  /** `text` is ASCII (requestLineText in request-state.ts), so its length is its length in bytes. */
  add(text: string): void {
    if (this.length + text.length > this.bytes.length) {
      this.drain();
      if (text.length > this.bytes.length) this.bytes = Buffer.allocUnsafe(this.batchBytes + text.length);
    }
    this.length += this.bytes.write(text, this.length, "latin1");
    if (this.length >= this.batchBytes) this.drain();
  }

  take(): string {
    if (this.length === 0) return "";
    const text = this.bytes.toString("latin1", 0, this.length);
    this.length = 0;
    return text;
  }

  drain(): void {
    if (this.length > 0) this.destination.write(this.take());
  }
}

const requestLinesOf = new WeakMap<Logger, PendingRequestLines>();

/**
 * The structured log: JSON lines on stderr (pino), written asynchronously in batches at least once a second and on
 * `flushLog`. A caller's own destination (tests) gets every line as logged, unless it asks for batches.
 */
export function createLogger(
  level: LogLevel,
  destination?: DestinationStream,
  options: { requestBatchChars?: number } = {},
): Logger {
  const target = destination ?? fileDestination({ dest: 2, sync: false, minLength: 4096 });
  const requestLines = new PendingRequestLines(
    target,
    options.requestBatchChars ?? (destination ? 0 : REQUEST_BATCH_CHARS),
  );
  const logger = pino(
    {
      level,
      base: undefined,
      timestamp: () => `,"time":"${isoInstant(Date.now())}"`,
      formatters: { level: (label) => ({ level: label }) },
      hooks: { streamWrite: (line) => requestLines.take() + line },
      // A child writes to its parent's destination: its request lines join the same batch, in order.
      onChild: (child) => requestLinesOf.set(child, requestLines),
    },
    target,
  );
  requestLinesOf.set(logger, requestLines);
  if (!destination) setInterval(() => flushLog(logger), FLUSH_EVERY_MS).unref();
  return logger;
}

/** A request's line (request-state.ts), to the batch of the logger (or of the parent it is a child of). */
export function logRequestLine(logger: Logger, line: string): void {
  requestLinesOf.get(logger)?.add(line);
}

/** Node's warnings (a deprecation, the AWS SDK's Node notice) as log lines, not Node's default multi-line text. */
export function logProcessWarnings(logger: Logger): void {
  process.removeAllListeners("warning");
  process.on("warning", (warning: Error & { code?: string }) =>
    logger.warn({ warning: warning.name, ...(warning.code ? { code: warning.code } : {}) }, warning.message),
  );
}

/** Writes the request lines gathered, then pino's own batch. */
export function flushLog(logger: Logger, done?: (error?: Error) => void): void {
  requestLinesOf.get(logger)?.drain();
  logger.flush(done);
}
