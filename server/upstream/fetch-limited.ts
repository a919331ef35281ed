import { type Dispatcher, request } from "undici";

/** Why an upstream request failed. Messages are for operators' logs: never the body or a credentialed URL. */
export type UpstreamFailure = "timeout" | "too-large" | "unavailable" | "http-status";

/** How one request ended, for metrics: `ok` for any answer below 400 (a 304 included). */
export type UpstreamOutcome = "ok" | UpstreamFailure;

export type UpstreamCallRecorder = (outcome: UpstreamOutcome) => void;

/** The first system or undici code in an error's cause chain (ECONNREFUSED, CERT_HAS_EXPIRED …), else its name. */
function causeOf(error: unknown): string {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === "string" && code !== "") return code;
  }
  return error instanceof Error ? error.name : "unknown error";
}

export class UpstreamRequestError extends Error {
  readonly failure: UpstreamFailure;
  /** What went wrong underneath when the connection failed (causeOf); else null. */
  readonly underlying: string | null;
  constructor(failure: UpstreamFailure, message: string, underlying: string | null = null) {
    super(message);
    this.name = "UpstreamRequestError";
    this.failure = failure;
    this.underlying = underlying;
  }
}

export interface LimitedRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}

export interface LimitOptions {
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  recordCall?: UpstreamCallRecorder;
}

export interface LimitedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * One HTTP request with a time-out over the whole exchange and a ceiling on the body size, checked against
 * Content-Length first and enforced while reading.
 */
export async function fetchLimited(target: LimitedRequest, options: LimitOptions): Promise<LimitedResponse> {
  try {
    const response = await fetchOnce(target, options);
    options.recordCall?.(response.status < 400 ? "ok" : "http-status");
    return response;
  } catch (error) {
    if (error instanceof UpstreamRequestError) options.recordCall?.(error.failure);
    throw error;
  }
}

async function fetchOnce(target: LimitedRequest, options: LimitOptions): Promise<LimitedResponse> {
  const host = safeHost(target.url);
  const signal = AbortSignal.timeout(options.timeoutMs);
  // A transport error: the time-out when it ran out, else what broke underneath.
  const failure = (error: unknown, timedOut: string, broke: string) => {
    if (signal.aborted)
      return new UpstreamRequestError("timeout", `${host} ${timedOut} within ${options.timeoutMs} ms`);
    const cause = causeOf(error);
    return new UpstreamRequestError("unavailable", `${host} ${broke} (${cause})`, cause);
  };
  let response: Dispatcher.ResponseData;
  try {
    response = await request(target.url, {
      method: target.method ?? "GET",
      headers: { "user-agent": options.userAgent, ...target.headers },
      body: target.body,
      signal,
    });
  } catch (error) {
    throw failure(error, "did not answer", "could not be reached");
  }
  const declared = Number(response.headers["content-length"] ?? NaN);
  if (declared > options.maxBytes) {
    response.body.destroy();
    throw new UpstreamRequestError(
      "too-large",
      `${host} announced ${declared} bytes, over the ${options.maxBytes}-byte ceiling`,
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > options.maxBytes) {
        response.body.destroy();
        throw new UpstreamRequestError("too-large", `${host} sent more than the ${options.maxBytes}-byte ceiling`);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof UpstreamRequestError) throw error;
    throw failure(error, "did not finish", "broke off the answer");
  }
  return { status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) };
}

export function headerValue(headers: LimitedResponse["headers"], name: string): string | null {
  const value = headers[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/** Retry-After (delay-seconds or HTTP date, RFC 9110 10.2.3) in ms from now, at most a day; null if unreadable. */
export function retryAfterMs(value: string | null): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  // Capped before multiplying: hundreds of digits are a day, not Infinity.
  const milliseconds = /^\d+$/.test(trimmed)
    ? Math.min(Number(trimmed), 86_400) * 1000
    : Date.parse(trimmed) - Date.now();
  return Number.isFinite(milliseconds) ? Math.min(Math.max(0, milliseconds), 86_400_000) : null;
}

/** Only the host is ever named in messages: paths and queries may carry keys. */
function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "upstream";
  }
}
