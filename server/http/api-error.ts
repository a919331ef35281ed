import { ERROR_TABLE, type ErrorCode } from "../../schemas/errors.ts";

/**
 * An expected failure with a contract code. Its message is public: no stack, upstream body, URL or environment value.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryAfterSeconds: number | null;
  readonly headers: Record<string, string>;

  /** `cause`, what went wrong inside (a damaged index file), is logged for operators, never answered. */
  constructor(
    code: ErrorCode,
    message?: string,
    options: { retryAfterSeconds?: number; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    // No stack: capturing one is most of the cost of a 401, 404 or 429, and refused requests must stay cheap.
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
