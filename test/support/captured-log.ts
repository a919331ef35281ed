import { createLogger, type Logger } from "../../server/observability/logger.ts";

/** A logger at `info` whose writes are kept in memory, and its lines parsed as JSON. */
export function capturedLog(options?: { requestBatchChars?: number }): {
  logger: Logger;
  writes: string[];
  lines: () => Record<string, unknown>[];
} {
  const writes: string[] = [];
  const logger = createLogger("info", { write: (text: string) => void writes.push(text) }, options);
  const lines = () =>
    writes
      .join("")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, writes, lines };
}
