// How one request's answer is written once the pipeline (pipeline.ts) knows it: headers, body, log line, metrics.
import { randomUUID } from "node:crypto";
import { FastResponse } from "srvx";
import { RETRY_AFTER_UNAVAILABLE_SECONDS } from "../../schemas/errors.ts";
import type { RouteSpec } from "../../schemas/routes/route-spec.ts";
import { logRequest, type Logger } from "../observability/logger.ts";
import type { ServiceMetrics } from "../observability/metrics.ts";
import { isoInstant } from "../time/iso-instant.ts";
import { ApiError } from "./api-error.ts";
import type { Incoming } from "./incoming.ts";
import type { PipelineContext } from "./pipeline.ts";
import { matchesIfNoneMatch, responseBody, serialiseError, varyOnEncoding, type PreparedAnswer } from "./respond.ts";
import { SplicedBody, type ResponseBody } from "./spliced-body.ts";

const JSON_MEDIA_TYPE = "application/json; charset=utf-8";

/**
 * One request's answer as it is built. Headers are collected in a plain object and handed to the server's response
 * with the body, so the request path never builds a `Headers` object (h3 merges in its own CORS headers when set).
 */
export interface RequestState {
  id: string;
  now: number;
  headers: Record<string, string>;
  /** For the request's log line: its route name, when it started (monotonic ms) and how the answer was found. */
  route: string;
  startedAt: number;
  cache?: "kept" | "hit" | "miss" | "stale";
  logger: Logger;
  metrics: ServiceMetrics;
}

/** The state of a request to `route` as it starts: its id, clock reading and first header. */
export function startRequest(context: PipelineContext, route: string): RequestState {
  const id = randomUUID();
  return {
    id,
    now: context.clock.now(),
    headers: { "x-request-id": id },
    route,
    startedAt: performance.now(),
    logger: context.logger,
    metrics: context.metrics,
  };
}

/**
 * One line per request: its id, route name, status, duration and, where there is one, how the cache answered. Counted
 * in the metrics whatever the log level.
 */
export function logAnswer(request: RequestState, status: number): void {
  const elapsedMs = performance.now() - request.startedAt;
  request.metrics.recordRequest(request.route, status, elapsedMs / 1000);
  if (!request.logger.isLevelEnabled("info")) return;
  const durationMs = Math.round(elapsedMs * 1000) / 1000;
  logRequest(request.logger, { requestId: request.id, route: request.route, status, durationMs, cache: request.cache });
}

/**
 * An answer as the pipeline hands it to the transport: status, headers and body (no `Headers` or `Response` object).
 * h3 gets it as srvx's Response (toH3Result); the edge writes it on Node's response itself (node-exchange.ts).
 */
export class HttpAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: ResponseBody | null;
  constructor(status: number, headers: Record<string, string>, body: ResponseBody | null) {
    this.status = status;
    this.headers = headers;
    this.body = body;
  }
}

/** What an h3 handler returns for the pipeline's result: HttpAnswers become Responses; h3's own values pass as they are. */
export function toH3Result(result: unknown): unknown {
  if (result instanceof HttpAnswer) {
    const body = result.body instanceof SplicedBody ? result.body.joined() : result.body;
    return new FastResponse(body, { status: result.status, headers: result.headers });
  }
  return result instanceof Promise ? result.then(toH3Result) : result;
}

/** A success answer: caching headers, 304 against If-None-Match, the body in the coding the client accepts. */
export function answerSuccess(
  incoming: Incoming,
  request: RequestState,
  spec: RouteSpec,
  answer: PreparedAnswer,
  context: PipelineContext,
): HttpAnswer {
  const { headers } = request;
  const notModified =
    spec.publicCacheSeconds !== null && matchesIfNoneMatch(incoming.req.headers.get("if-none-match"), answer.data.etag);
  logAnswer(request, notModified ? 304 : answer.status);
  headers["content-type"] = spec.mediaType ?? JSON_MEDIA_TYPE;
  if (spec.publicCacheSeconds !== null) {
    headers["cache-control"] = publicCacheControl(spec.publicCacheSeconds);
    headers.etag = answer.data.etag;
    if (notModified) {
      varyOnEncoding(answer, headers);
      return new HttpAnswer(304, headers, null);
    }
  } else {
    headers["cache-control"] = "no-store";
  }
  // responseBody states the length, not Node: a HEAD (whose body Node drops) then carries the length its GET would.
  // generatedAt is now, when the response is built: an answer that waited on a provider is younger than its request.
  const body = responseBody(
    answer,
    request.id,
    isoInstant(context.clock.now()),
    incoming.req.headers,
    context.compressor,
    headers,
  );
  return new HttpAnswer(answer.status, headers, body);
}

/** `Cache-Control` texts by lifetime: a route table has a handful, so each is built once rather than per response. */
const cacheControlBySeconds = new Map<number, string>();

function publicCacheControl(seconds: number): string {
  let text = cacheControlBySeconds.get(seconds);
  if (text === undefined) cacheControlBySeconds.set(seconds, (text = `public, max-age=${seconds}`));
  return text;
}

export function answerError(request: RequestState, error: ApiError): HttpAnswer {
  logAnswer(request, error.status);
  const headers = errorHeaders(request, error);
  const body = serialiseError(error, request.id);
  // Stated here, as for a success (answerSuccess): Node drops a HEAD's body, and with it the length it would count.
  headers["content-length"] = String(Buffer.byteLength(body));
  return new HttpAnswer(error.status, headers, body);
}

export function errorHeaders(request: RequestState, error: ApiError): Record<string, string> {
  const { headers } = request;
  headers["content-type"] = JSON_MEDIA_TYPE;
  headers["cache-control"] = "no-store";
  const retryAfter = error.retryAfterSeconds ?? (error.status === 503 ? RETRY_AFTER_UNAVAILABLE_SECONDS : null);
  if (retryAfter !== null) headers["retry-after"] = String(retryAfter);
  // RFC 9110 section 11.6.1: a 401 names the scheme that would succeed (the key may also come as X-API-Key).
  if (error.status === 401) headers["www-authenticate"] = 'Bearer realm="service"';
  return Object.assign(headers, error.headers);
}

/** Anything that is not an ApiError is a bug: log it for operators, answer INTERNAL with nothing internal. */
export function toApiError(error: unknown, context: PipelineContext): ApiError {
  if (error instanceof ApiError) {
    if (error.cause !== undefined) logCauseOnce(error, context);
    return error;
  }
  context.logger.error({ err: error }, "internal error");
  return new ApiError("INTERNAL");
}

/** Causes already logged, by message: a damaged or outdated index fails every request that reads it, not once. */
const loggedCauses = new Set<string>();
const LOGGED_CAUSES_MAX = 100;

/** Tells the operator why an answer failed (say, a column an older index lacks), the first time each cause occurs. */
function logCauseOnce(error: ApiError, context: PipelineContext): void {
  const cause = error.cause instanceof Error ? error.cause.message : String(error.cause);
  if (loggedCauses.has(cause) || loggedCauses.size >= LOGGED_CAUSES_MAX) return;
  loggedCauses.add(cause);
  context.logger.warn(
    { err: error.cause, code: error.code },
    `answered ${error.code}: ${cause} (logged once per cause)`,
  );
}
