import { type DestinationStream, destination as fileDestination, type Logger, pino } from "pino";
import { isoInstant } from "../time/iso-instant.ts";
import type { WeatherLookupOutcome } from "../weather/cache.ts";
import { jsonStringText, loggedPath, loggedQuery } from "./request-line-text.ts";

export type { Logger };

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** How long a line may wait in the batch: a quiet server's warning must reach stderr soon, not at the next 4 KB. */
const FLUSH_EVERY_MS = 1000;
/** Request lines gathered before they are handed to the destination in one write. */
const REQUEST_BATCH_CHARS = 65_536;

/** The fields of one request's line (request-state.ts), in the order the line gives them. */
export interface RequestLine {
  requestId: string;
  method: string;
  /** The path as routed; any API key in it is reduced to its id when written (request-line-text.ts). */
  path: string;
  /** The query without its `?` (empty for none); values of credential-like parameters are replaced when written. */
  query: string;
  /** The client's address (the socket's peer, or the one a trusted proxy names); `unknown` when it cannot be told. */
  client: string;
  /** The id (never the secret) of the API key the request was authenticated with. */
  keyId?: string;
  route: string;
  status: number;
  durationMs: number;
  /** Bytes of the body sent (0 for a HEAD, a 304 or a preflight). */
  bytes: number;
  /** How the answer was found: `kept`, `built`, or what the weather cache's lookup found; absent for refusals. */
  cache?: "kept" | "built" | WeatherLookupOutcome;
}

/** Room past a full batch for the line that fills it: a request line of ours is some 300 bytes (a longer one grows the buffer). */
const LINE_ROOM_BYTES = 1024;

/**
 * Request lines waiting for the destination, kept as the bytes they are written as, so no text is joined and
 * flattened per batch (joined text survived the young generation's collections). They join the destination in one
 * write per batch, and any other line pino writes takes them along first (its `streamWrite` hook), so the log's order
 * is the order things happened in.
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

  /** `text` is ASCII (logRequest), so its length is its length in bytes. */
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
 * The process's structured log: one JSON line per event on stderr (pino). Written asynchronously in batches, so a
 * request's line costs the request path little; the batch is written at least once a second, and `flushLog` before
 * the process exits. A caller's own destination (tests) gets every line as it is logged, unless it asks for batches.
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
    },
    target,
  );
  requestLinesOf.set(logger, requestLines);
  if (!destination) setInterval(() => flushLog(logger), FLUSH_EVERY_MS).unref();
  return logger;
}

/**
 * One request's line at `info`, in the form pino gives every other line. Written as one text rather than through
 * pino's generic serialiser, which costs a busy server more than the rest of a small answer: every value is a number,
 * text of a known alphabet (a UUID, a route name of the route table, a cache outcome), or text made JSON string text
 * in ASCII first (method, path, query, client, key id), with secrets taken out of path and query.
 */
export function logRequest(logger: Logger, line: RequestLine): void {
  const requestLines = requestLinesOf.get(logger);
  if (!requestLines)
    return void logger.info({ ...line, path: loggedPath(line.path), query: loggedQuery(line.query) }, "request");
  const keyId = line.keyId === undefined ? "" : `,"keyId":"${jsonStringText(line.keyId)}"`;
  const cache = line.cache === undefined ? "" : `,"cache":"${line.cache}"`;
  const path = jsonStringText(loggedPath(line.path));
  const query = jsonStringText(loggedQuery(line.query));
  requestLines.add(
    `{"level":"info","time":"${isoInstant(Date.now())}","requestId":"${line.requestId}",` +
      `"method":"${jsonStringText(line.method)}","path":"${path}","query":"${query}",` +
      `"client":"${jsonStringText(line.client)}"${keyId},"route":"${line.route}","status":${line.status},` +
      `"durationMs":${line.durationMs},"bytes":${line.bytes}${cache},"msg":"request"}\n`,
  );
}

/**
 * Node's own warnings (a deprecation, the AWS SDK's notice about Node versions) as lines of this log, for a process whose
 * stderr is JSON lines: Node prints them as plain multi-line text through its default 'warning' listener, replaced here.
 */
export function logProcessWarnings(logger: Logger): void {
  process.removeAllListeners("warning");
  process.on("warning", (warning: Error & { code?: string }) =>
    logger.warn({ warning: warning.name, ...(warning.code ? { code: warning.code } : {}) }, warning.message),
  );
}

/** Writes what the log holds: the request lines gathered, then pino's own batch. */
export function flushLog(logger: Logger, done?: (error?: Error) => void): void {
  requestLinesOf.get(logger)?.drain();
  logger.flush(done);
}
