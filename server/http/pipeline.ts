import { getRequestIP, type H3Event } from "h3";
import type { RouteSpec } from "../../schemas/routes/route-spec.ts";
import type { Clock } from "../config.ts";
import type { StoredKey } from "../keys/api-keys.ts";
import type { Logger } from "../observability/logger.ts";
import type { ServiceMetrics } from "../observability/metrics.ts";
import { ApiError } from "./api-error.ts";
import { authenticate, type Principal } from "./auth.ts";
import { clientAddress } from "./client-address.ts";
import { addNoOriginCorsHeaders, allowedMethods, applyCors } from "./cors.ts";
import type { Compressor } from "./compression.ts";
import { incomingOfEvent, type Incoming } from "./incoming.ts";
import type { AnswersByKey, KeptAnswers } from "./kept-answers.ts";
import type { RecognisedUrls } from "./recognised-urls.ts";
import { setRateLimitHeaders, type RateLimiter } from "./rate-limit.ts";
import {
  answerError,
  answerSuccess,
  errorHeaders,
  HttpAnswer,
  logAnswer,
  startRequest,
  toApiError,
  toH3Result,
  type RequestState,
} from "./request-answer.ts";
import { prepareAnswer, serialiseError, type PreparedAnswer } from "./respond.ts";
import type { RouteHandler, RouteResult } from "./route-handler.ts";

export interface PipelineContext {
  environment: string;
  corsOrigins: string[];
  clock: Clock;
  keyLookup: (id: string) => StoredKey | undefined;
  rateLimiter: RateLimiter;
  /** Whether a durable store is bound; routes reading the index also need a completed ingestion (checked where they read). */
  storageBound: boolean;
  /** Proxies whose X-Forwarded-For names the client (client-address.ts); empty, the socket's peer is the client. */
  trustedProxies: ReadonlySet<string>;
  keptAnswers: KeptAnswers;
  answersByKey: AnswersByKey;
  /** URLs whose answers were kept or repeated, which the edge then routes without h3 (recognised-urls.ts). */
  recognisedUrls: RecognisedUrls;
  /** Compressed forms of large answers' constant parts (compression.ts). */
  compressor: Compressor;
  logger: Logger;
  /** Where every answer is counted, by route name and status, with its duration. */
  metrics: ServiceMetrics;
}

export interface BoundRoute {
  spec: RouteSpec;
  handler: RouteHandler;
  /**
   * For routes whose answer depends only on published data, parameters and clock: the identities of the data the
   * handler reads now. Present, an answer the handler declared valid is kept for that generation (kept-answers.ts).
   */
  generation?: () => readonly unknown[];
}

/** The generation of routes that read no published data. */
const NO_GENERATION: readonly unknown[] = [];

/** Route name under which unregistered paths (and hidden operator paths) are counted. */
const UNMATCHED_ROUTE = "unmatched";

/** Under which address a request is counted whose client address the server cannot tell. */
const UNKNOWN_ADDRESS = "unknown";

/**
 * Answers every request to one path: method dispatch, CORS, auth, rate limit, storage gate, envelope, caching headers.
 * Synchronous whenever the answer is at hand (a kept answer, a fresh weather copy, a registry read), so the server
 * writes it in the same turn; a promise only when the route waits on something.
 */
export function handlePath(event: H3Event, routes: BoundRoute[], context: PipelineContext): unknown {
  const incoming = incomingOfEvent(event);
  // The router also matches `/x/` to `/x`; a path we do not publish must not answer, and a bad slug must not fall through.
  if (incoming.pathname.length > 1 && incoming.pathname.endsWith("/"))
    return toH3Result(answerUnregistered(incoming, context));
  return toH3Result(answerPath(incoming, routes, context));
}

/** Answers a request routed to `routes` (one path's), by h3 or by the edge (recognised-urls.ts). */
export function answerPath(incoming: Incoming, routes: BoundRoute[], context: PipelineContext): unknown {
  const access = routes[0]!.spec.access;
  const identity = identify(incoming, access, context);
  const principal = identity instanceof ApiError ? null : identity;
  // Everyone but an operator takes exactly the unregistered path's way through this code, so that neither the answer
  // nor the time it takes tells where an operator route is.
  if (access === "OPERATOR" && !principal?.scopes.includes("operator")) return answerUnmatched(incoming, context);

  const method = incoming.req.method === "HEAD" ? "GET" : incoming.req.method;
  const route = routes.find((candidate) => candidate.spec.method === method);
  const routeName = route?.spec.name ?? routes[0]!.spec.name;
  const request = startRequest(context, routeName);
  const preflight = applyCors(incoming, request.headers, context.corsOrigins, routes);
  if (preflight !== false) return answerPreflight(incoming, request, routeName, preflight, context);

  const limited =
    route?.spec.rateLimited === false ? undefined : consumeRateLimit(incoming, request, routeName, principal, context);
  if (limited) return limited;

  try {
    if (identity instanceof ApiError) throw identity;
    if (!route) {
      throw new ApiError("METHOD_NOT_ALLOWED", undefined, { headers: { allow: allowedMethods(routes) } });
    }
    const { spec } = route;
    if (spec.access === "ECOSYSTEM_INTERNAL") {
      if (!principal) throw new ApiError("UNAUTHORIZED");
      if (spec.scope !== null && !principal.scopes.includes(spec.scope)) throw new ApiError("FORBIDDEN");
    }
    if (spec.requiresDurableStorage && !context.storageBound) {
      throw new ApiError("SERVICE_UNAVAILABLE");
    }
    const answer = answerFor(incoming, routes, route, principal, request, context);
    if (!(answer instanceof Promise)) return answerSuccess(incoming, request, spec, answer, context);
    return answer
      .then(
        (ready) => answerSuccess(incoming, request, spec, ready, context),
        (error: unknown) => answerError(request, toApiError(error, context)),
      )
      .catch((error: unknown) => answerError(request, toApiError(error, context)));
  } catch (error) {
    return answerError(request, toApiError(error, context));
  }
}

/** The route's answer: a kept one when the data and the clock still allow it, else the handler's, kept when it may be. */
function answerFor(
  incoming: Incoming,
  routes: BoundRoute[],
  route: BoundRoute,
  principal: Principal | null,
  request: RequestState,
  context: PipelineContext,
): PreparedAnswer | Promise<PreparedAnswer> {
  const { spec, handler } = route;
  const generation = route.generation?.() ?? NO_GENERATION;
  const key = incoming.keptAnswerKey ?? keptAnswerKey(spec.name, incoming.pathname, incoming.search);
  const kept = context.keptAnswers.find(key, generation, request.now);
  if (kept) {
    request.cache = "kept";
    context.recognisedUrls.remember(incoming, routes);
    return kept;
  }
  const result = handler({
    query: incoming.event?.url.searchParams ?? new URLSearchParams(incoming.search),
    params: incoming.params,
    principal,
    now: request.now,
  });
  const prepare = (ready: RouteResult) => {
    if (ready.headers) Object.assign(request.headers, ready.headers);
    if (ready.meta && typeof ready.meta.cached === "boolean")
      request.cache = ready.meta.stale === true ? "stale" : ready.meta.cached ? "hit" : "miss";
    const known = ready.answerKey === undefined ? undefined : context.answersByKey.find(ready.answerKey);
    if (known) {
      context.recognisedUrls.remember(incoming, routes);
      return known;
    }
    const answer = prepareAnswer(ready, spec);
    if (ready.answerKey !== undefined) context.answersByKey.remember(ready.answerKey, answer);
    // Kept when what it was built from can be checked at reuse: the published data's generation, or the route's own check.
    const checkable = route.generation !== undefined || ready.stillCurrent !== undefined;
    if (checkable && ready.validUntil !== undefined && ready.validUntil > request.now) {
      const validity = {
        builtAt: request.now,
        until: ready.validUntil,
        stillCurrent: ready.stillCurrent,
        generationNow: route.generation,
      };
      context.keptAnswers.keep(key, generation, validity, answer);
      context.recognisedUrls.remember(incoming, routes);
    }
    return answer;
  };
  return result instanceof Promise ? result.then(prepare) : prepare(result);
}

/** What a route's answer to a path and query is kept under (kept-answers.ts). */
export function keptAnswerKey(routeName: string, pathname: string, search: string): string {
  return `${routeName}\n${pathname}\n${search}`;
}

/** Unregistered paths: 404 with the same headers as any other answer. */
export function handleUnmatched(event: H3Event, context: PipelineContext): unknown {
  return toH3Result(answerUnregistered(incomingOfEvent(event), context));
}

function answerUnregistered(incoming: Incoming, context: PipelineContext): unknown {
  // The key is checked as on an operator path, so both take the same time (answerPath).
  identify(incoming, "OPERATOR", context);
  return answerUnmatched(incoming, context);
}

/** Failures h3 raises before routing (a malformed URL): shaped, counted and headed like every other answer. */
export function answerFrameworkError(
  event: H3Event,
  error: { status: number; message: string },
  context: PipelineContext,
): unknown {
  const request = startRequest(context, UNMATCHED_ROUTE);
  // h3 could not build this request's URL; only its headers and address are read.
  const incoming: Incoming = { req: event.req, pathname: "", search: "", params: {}, event };
  applyCors(incoming, request.headers, context.corsOrigins, []);
  if (error.status >= 500)
    context.logger.error(
      { requestId: request.id, status: error.status },
      `internal error before routing: ${error.message}`,
    );
  const limited = consumeRateLimit(incoming, request, UNMATCHED_ROUTE, null, context);
  return toH3Result(
    limited ??
      answerError(
        request,
        new ApiError(error.status === 404 ? "NOT_FOUND" : error.status < 500 ? "BAD_REQUEST" : "INTERNAL"),
      ),
  );
}

/**
 * A failure the pipeline did not answer itself, for a request the edge took (recognised-urls.ts): shaped, counted
 * and headed as h3's onError answers one (answerFrameworkError), never a bare 500.
 */
export function answerUnexpectedFailure(error: unknown, context: PipelineContext): HttpAnswer {
  const request = startRequest(context, UNMATCHED_ROUTE);
  addNoOriginCorsHeaders(request.headers);
  return answerError(request, toApiError(error, context));
}

/**
 * The caller's key, null for none or an invalid one. A key file that cannot be read is a configuration problem:
 * logged for operators and answered CONFIGURATION_ERROR (an operator path still answers like an unregistered one).
 */
function identify(
  incoming: Incoming,
  access: BoundRoute["spec"]["access"],
  context: PipelineContext,
): Principal | null | ApiError {
  if (access === "PUBLIC") return null;
  try {
    return authenticate(
      incoming.req.headers,
      context.keyLookup,
      context.environment,
      incoming.req.runtime?.node?.req?.socket,
    );
  } catch (error) {
    context.logger.error(`the API key file could not be read: ${(error as Error).message}`);
    return new ApiError("CONFIGURATION_ERROR", "API keys cannot be checked on this deployment.");
  }
}

function answerUnmatched(incoming: Incoming, context: PipelineContext): unknown {
  const request = startRequest(context, UNMATCHED_ROUTE);
  const preflight = applyCors(incoming, request.headers, context.corsOrigins, []);
  if (preflight !== false) return answerPreflight(incoming, request, UNMATCHED_ROUTE, preflight, context);
  const limited = consumeRateLimit(incoming, request, UNMATCHED_ROUTE, null, context);
  return limited ?? answerError(request, new ApiError("NOT_FOUND"));
}

/** A CORS preflight is counted and headed like any other request to its route; h3 answers it with its CORS headers. */
function answerPreflight(
  incoming: Incoming,
  request: RequestState,
  routeName: string,
  preflight: unknown,
  context: PipelineContext,
): unknown {
  const limited = consumeRateLimit(incoming, request, routeName, null, context);
  if (limited) return limited;
  // Only h3 answers preflights (applyCors): the headers go on its event's response.
  for (const [name, value] of Object.entries(request.headers)) incoming.event?.res.headers.set(name, value);
  logAnswer(request, 204);
  return preflight;
}

/**
 * The answer to a request Node's HTTP parser refused before h3 saw it (raw spaces, an over-long URL, CONNECT):
 * counted under the unregistered route for its client address, with the headers of every other answer.
 */
export function answerRefusedRequest(
  clientAddress: string | undefined,
  context: PipelineContext,
): { status: number; headers: Record<string, string>; body: string } {
  const request = startRequest(context, UNMATCHED_ROUTE);
  addNoOriginCorsHeaders(request.headers);
  const decision = context.rateLimiter(UNMATCHED_ROUTE, clientAddress ?? UNKNOWN_ADDRESS, false, request.now);
  setRateLimitHeaders(decision, request.headers);
  const error = decision.allowed
    ? new ApiError("BAD_REQUEST")
    : new ApiError("RATE_LIMITED", undefined, { retryAfterSeconds: decision.resetSeconds });
  logAnswer(request, error.status);
  return { status: error.status, headers: errorHeaders(request, error), body: serialiseError(error, request.id) };
}

function publicClient(incoming: Incoming, context: PipelineContext): string | undefined {
  const peer = incoming.event ? getRequestIP(incoming.event) : incoming.req.ip;
  return context.trustedProxies.size === 0
    ? peer
    : clientAddress(peer, incoming.req.headers.get("x-forwarded-for"), context.trustedProxies);
}

/** Counts the request; returns the 429 answer when the allowance is spent. */
function consumeRateLimit(
  incoming: Incoming,
  request: RequestState,
  routeName: string,
  principal: Principal | null,
  context: PipelineContext,
): unknown {
  const client = principal ? principal.keyId : (publicClient(incoming, context) ?? UNKNOWN_ADDRESS);
  const decision = context.rateLimiter(routeName, client, principal !== null, request.now);
  setRateLimitHeaders(decision, request.headers);
  if (decision.allowed) return undefined;
  return answerError(request, new ApiError("RATE_LIMITED", undefined, { retryAfterSeconds: decision.resetSeconds }));
}
