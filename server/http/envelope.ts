// The last step of the pipeline (pipeline.ts): one request's answer written as status, headers and body, logged and counted.
import { randomUUID } from "node:crypto";
import { RETRY_AFTER_UNAVAILABLE_SECONDS } from "../../schemas/errors.ts";
import type { RouteSpec } from "../../schemas/routes/route-spec.ts";
import { type Logger, logRequest, type RequestLine } from "../observability/logger.ts";
import type { ServiceMetrics } from "../observability/metrics.ts";
import { isoInstant } from "../time/iso-instant.ts";
import type { ApiError } from "./api-error.ts";
import type { HeaderReader } from "./api-request.ts";
import type { Compressor } from "./compression.ts";
import { JSON_MEDIA_TYPE } from "./negotiation.ts";
import {
  addVary,
  isCompressible,
  matchesIfNoneMatch,
  type PreparedAnswer,
  responseBody,
  serialiseError,
} from "./respond.ts";
import type { ResponseBody } from "./spliced-body.ts";

/**
 * An answer as the pipeline hands it to a transport: status, headers and body (no `Headers` or `Response` object).
 * The h3 handler turns it into srvx's Response (h3-handler.ts); the Node listener writes it itself (node-listener.ts).
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

/** Where a request's answer is logged and counted. */
export interface AnswerRecorders {
  logger: Logger;
  metrics: ServiceMetrics;
}

/** What a request's log line names of the request itself (an ApiRequest is one). */
export interface RequestFacts {
  method: string;
  pathname: string;
  /** The query with its `?`, or empty. */
  search: string;
}

/** For a request a transport could not read (or a failure with no request): its line names no method or path. */
export const UNREAD_REQUEST: RequestFacts = { method: "", pathname: "", search: "" };

/**
 * One request's answer as it is built. Headers are collected in a plain object and handed to the transport with the
 * body, so the request path never builds a `Headers` object.
 */
export interface RequestState {
  id: string;
  /** Epoch ms from the app's clock, fixed for the whole request. */
  now: number;
  headers: Record<string, string>;
  /** For the request's log line: its route name, when it started (monotonic ms) and how the answer was found. */
  route: string;
  startedAt: number;
  cache?: RequestLine["cache"];
  /** The request as its line names it, the client's address, and the id of the key it was authenticated with. */
  request: RequestFacts;
  client: string;
  keyId?: string;
  recorders: AnswerRecorders;
}

export function startRequest(
  route: string,
  now: number,
  recorders: AnswerRecorders,
  request: RequestFacts,
  client: string,
): RequestState {
  const id = randomUUID();
  const headers = { "x-request-id": id };
  return { id, now, headers, route, startedAt: performance.now(), request, client, recorders };
}

/**
 * One line per request: its id, method, path and query (secrets taken out), client, key id, route name, status,
 * duration, bytes sent and, where there is one, how the answer was found. Counted in the metrics whatever the level.
 */
export function logAnswer(request: RequestState, status: number): void {
  const elapsedMs = performance.now() - request.startedAt;
  const { logger, metrics } = request.recorders;
  metrics.recordRequest(request.route, status, elapsedMs / 1000);
  if (!logger.isLevelEnabled("info")) return;
  const { method, pathname, search } = request.request;
  logRequest(logger, {
    requestId: request.id,
    method,
    path: pathname,
    query: search,
    client: request.client,
    keyId: request.keyId,
    route: request.route,
    status,
    durationMs: Math.round(elapsedMs * 1000) / 1000,
    // The length the answer states (set before it is logged); Node drops a HEAD's body, so none is sent.
    bytes: method === "HEAD" ? 0 : Number(request.headers["content-length"] ?? 0),
    cache: request.cache,
  });
}

/** A success answer: caching headers, 304 against If-None-Match, the body in the coding the client accepts. */
export function answerSuccess(
  requestHeaders: HeaderReader,
  request: RequestState,
  spec: RouteSpec,
  answer: PreparedAnswer,
  compressor: Compressor,
  generatedAt: number,
): HttpAnswer {
  const { headers } = request;
  const notModified =
    spec.publicCacheSeconds !== null && matchesIfNoneMatch(requestHeaders.get("if-none-match"), answer.data.etag);
  headers["content-type"] = answer.mediaType ?? spec.mediaType ?? JSON_MEDIA_TYPE;
  if (answer.headers) Object.assign(headers, answer.headers);
  // The same URL answers JSON or CSV by its Accept header: caches must key its copies by it.
  if (spec.csv) addVary(headers, "accept");
  if (spec.publicCacheSeconds !== null) {
    headers["cache-control"] = `public, max-age=${spec.publicCacheSeconds}`;
    headers.etag = answer.data.etag;
    if (notModified) {
      // RFC 9110 section 15.4.5: a 304 names what its 200 would, so caches key its copies by coding.
      if (isCompressible(answer)) addVary(headers, "accept-encoding");
      logAnswer(request, 304);
      return new HttpAnswer(304, headers, null);
    }
  } else {
    headers["cache-control"] = "no-store";
  }
  // responseBody states the length, not Node: a HEAD (whose body Node drops) then carries the length its GET would.
  // generatedAt is when the response is built: an answer that waited on a provider is younger than its request.
  const body = responseBody(answer, request.id, isoInstant(generatedAt), requestHeaders, compressor, headers);
  logAnswer(request, answer.status);
  return new HttpAnswer(answer.status, headers, body);
}

export function answerError(request: RequestState, error: ApiError): HttpAnswer {
  const headers = errorHeaders(request, error);
  const body = serialiseError(error, request.id);
  // Stated here, as for a success (answerSuccess): Node drops a HEAD's body, and with it the length it would count.
  headers["content-length"] = String(Buffer.byteLength(body));
  logAnswer(request, error.status);
  return new HttpAnswer(error.status, headers, body);
}

function errorHeaders(request: RequestState, error: ApiError): Record<string, string> {
  const { headers } = request;
  headers["content-type"] = JSON_MEDIA_TYPE;
  headers["cache-control"] = "no-store";
  const retryAfter = error.retryAfterSeconds ?? (error.status === 503 ? RETRY_AFTER_UNAVAILABLE_SECONDS : null);
  if (retryAfter !== null) headers["retry-after"] = String(retryAfter);
  // RFC 9110 section 11.6.1: a 401 names the scheme that would succeed (the key may also come as X-API-Key).
  if (error.status === 401) headers["www-authenticate"] = 'Bearer realm="service"';
  return Object.assign(headers, error.headers);
}
