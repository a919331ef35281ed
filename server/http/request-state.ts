import { randomUUID } from "node:crypto";
import { type Logger, logRequest, type RequestLine } from "../observability/logger.ts";
import type { ServiceMetrics } from "../observability/metrics.ts";

interface AnswerRecorders {
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

/** For a request a transport could not read, or a failure with no request. */
export const UNREAD_REQUEST: RequestFacts = { method: "", pathname: "", search: "" };

/** One request's answer as it is built; headers in a plain object, so the request path builds no `Headers`. */
export interface RequestState {
  id: string;
  /** Epoch ms from the app's clock, fixed for the whole request. */
  now: number;
  headers: Record<string, string>;
  route: string;
  /** Monotonic ms. */
  startedAt: number;
  cache?: RequestLine["cache"];
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

/** One line per request (secrets taken out by logRequest), and counted in the metrics whatever the level. */
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
    // Node drops a HEAD's body, so none is sent.
    bytes: method === "HEAD" ? 0 : Number(state.headers["content-length"] ?? 0),
    cache: state.cache,
  });
}
