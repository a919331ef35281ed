import { ERROR_TABLE, type ErrorCode } from "../../schemas/errors.ts";

/**
 * An expected failure with a contract code. Its message is public, so it must never carry
 * a stack, an upstream body, a credentialed URL or an environment value.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryAfterSeconds: number | null;
  readonly headers: Record<string, string>;

  /**
   * `cause`, when given, is what went wrong inside (a damaged index file, a column an older index lacks): logged for
   * operators by the pipeline, never answered.
   */
  constructor(
    code: ErrorCode,
    message?: string,
    options: { retryAfterSeconds?: number; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    // An expected answer needs no stack, and capturing one is most of the cost of a 401, 404 or 429: refused
    // requests must stay cheap, or they are the cheapest way to load the service.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(message ?? ERROR_TABLE[code].message, options.cause === undefined ? undefined : { cause: options.cause });
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.name = "ApiError";
    this.code = code;
    this.status = ERROR_TABLE[code].status;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
    this.headers = options.headers ?? {};
  }
}
