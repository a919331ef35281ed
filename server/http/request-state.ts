// One request's state while the pipeline answers it, and the line and count its answer is recorded with.
import { randomUUID } from "node:crypto";
import { type Logger, logRequest, type RequestLine } from "../observability/logger.ts";
import type { ServiceMetrics } from "../observability/metrics.ts";

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
export function logAnswer(state: RequestState, status: number): void {
  const elapsedMs = performance.now() - state.startedAt;
  const { logger, metrics } = state.recorders;
  metrics.recordRequest(state.route, status, elapsedMs / 1000);
  if (!logger.isLevelEnabled("info")) return;
  const { method, pathname, search } = state.request;
  logRequest(logger, {
    requestId: state.id,
    method,
    path: pathname,
    query: search,
    client: state.client,
    keyId: state.keyId,
    route: state.route,
    status,
    durationMs: Math.round(elapsedMs * 1000) / 1000,
    // The length the answer states (set before it is logged); Node drops a HEAD's body, so none is sent.
    bytes: method === "HEAD" ? 0 : Number(state.headers["content-length"] ?? 0),
    cache: state.cache,
  });
}
