/** The error table of the v1 contract: every code, its HTTP status and its public message, defined once. */

export const ERROR_TABLE = {
  BAD_REQUEST: { status: 400, message: "The request is malformed." },
  VALIDATION_FAILED: { status: 400, message: "A parameter is missing or invalid." },
  WEATHER_LOCATION_INVALID: { status: 400, message: "The location is not a valid point." },
  ECONOMICS_RANGE_INVALID: { status: 400, message: "The date range is invalid." },
  UNAUTHORIZED: { status: 401, message: "A valid API key is required." },
  FORBIDDEN: { status: 403, message: "The API key lacks the scope this route requires." },
  NOT_FOUND: { status: 404, message: "Nothing exists at this path." },
  METHOD_NOT_ALLOWED: { status: 405, message: "This method is not allowed on this path." },
  RATE_LIMITED: { status: 429, message: "Too many requests; retry later." },
  INTERNAL: { status: 500, message: "An internal error occurred." },
  CONFIGURATION_ERROR: { status: 500, message: "The service is not configured for this request." },
  SOURCE_DISABLED: { status: 503, message: "This data source is disabled on this deployment." },
  UPSTREAM_UNAVAILABLE: { status: 503, message: "The upstream provider is unavailable." },
  UPSTREAM_INVALID_PAYLOAD: { status: 502, message: "The upstream provider returned an invalid payload." },
  UPSTREAM_PAYLOAD_TOO_LARGE: { status: 502, message: "The upstream provider returned a payload that is too large." },
  UPSTREAM_TIMEOUT: { status: 504, message: "The upstream provider did not answer in time." },
  SERVICE_UNAVAILABLE: { status: 503, message: "The data behind this route is not available on this deployment." },
  STORAGE_UNAVAILABLE: { status: 503, message: "The data store could not be read." },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_TABLE;
export const ERROR_CODES = Object.keys(ERROR_TABLE) as ErrorCode[];

/** The seven codes every route can produce (spec "Errors": "the first seven"). */
export const COMMON_ERROR_CODES: ErrorCode[] = [
  "BAD_REQUEST",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "METHOD_NOT_ALLOWED",
  "RATE_LIMITED",
  "CONFIGURATION_ERROR",
  "INTERNAL",
];

/** Seconds a client should wait after a 503 before retrying. */
export const RETRY_AFTER_UNAVAILABLE_SECONDS = 60;
