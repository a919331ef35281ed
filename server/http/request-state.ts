import { randomUUID } from "node:crypto";
import { type Logger, logRequestLine } from "../observability/logger.ts";
import type { ServiceMetrics } from "../observability/metrics.ts";
import { jsonStringText, loggedPath, loggedQuery } from "../observability/request-line-text.ts";
import { isoInstant } from "../time/iso-instant.ts";
import type { WeatherLookupOutcome } from "../weather/cache.ts";
import type { ApiRequest } from "./api-request.ts";

interface AnswerRecorders {
  logger: Logger;
  metrics: ServiceMetrics;
}

/** What a request's log line names of the request itself. */
type RequestFacts = Pick<ApiRequest, "method" | "pathname" | "search">;

/** One request's answer as it is built; headers in a plain object, so the request path builds no `Headers`. */
export interface RequestState {
  id: string;
  /** Epoch ms from the app's clock, fixed for the whole request. */
  now: number;
  headers: Record<string, string>;
  route: string;
  /** Monotonic ms. */
  startedAt: number;
  /** How the answer was found: `kept`, `built`, or what the weather cache's lookup found; unset for refusals. */
  cache?: "kept" | "built" | WeatherLookupOutcome;
  request: RequestFacts;
  /** The socket's peer, or the address a trusted proxy names; `unknown` when it cannot be told. */
  client: string;
  /** The id (never the secret) of the authenticating API key. */
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

/** One line per request, and counted in the metrics whatever the level. */
export function logAnswer(state: RequestState, status: number): void {
  const elapsedMs = performance.now() - state.startedAt;
  const { logger, metrics } = state.recorders;
  metrics.recordRequest(state.route, status, elapsedMs / 1000);
  if (logger.isLevelEnabled("info")) logRequestLine(logger, requestLineText(state, status, elapsedMs));
}

/**
 * A request's line at `info`, shaped as pino's, written as text: pino's serialiser costs more than a small answer
 * (docs/performance.md). Every value is a number, of a known alphabet (UUID, route name, cache outcome), or made ASCII
 * JSON string text, with secrets taken out of path and query.
 */
export function requestLineText(
  state: Pick<RequestState, "id" | "request" | "client" | "keyId" | "route" | "cache" | "headers">,
  status: number,
  elapsedMs: number,
): string {
  const { method, pathname, search } = state.request;
  const keyId = state.keyId === undefined ? "" : `,"keyId":"${jsonStringText(state.keyId)}"`;
  const cache = state.cache === undefined ? "" : `,"cache":"${state.cache}"`;
  // Node drops a HEAD's body, so none is sent. The length is set as String(bytes) (envelope.ts): an integer's text.
  const bytes = method === "HEAD" ? "0" : (state.headers["content-length"] ?? "0");
  return (
    `{"level":"info","time":"${isoInstant(Date.now())}","requestId":"${state.id}",` +
    `"method":"${jsonStringText(method)}","path":"${jsonStringText(loggedPath(pathname))}",` +
    `"query":"${jsonStringText(loggedQuery(search))}","client":"${jsonStringText(state.client)}"${keyId},` +
    `"route":"${state.route}","status":${status},"durationMs":${Math.round(elapsedMs * 1000) / 1000},` +
    `"bytes":${bytes}${cache},"msg":"request"}\n`
  );
}
