// Every request's way through the service: route, key and scope, rate limit, answer, envelope. Transports
// (h3-handler.ts, node-listener.ts) only translate their request into an ApiRequest and write the HttpAnswer back.
import type { CsvForm } from "../../schemas/responses/csv-tables.ts";
import type { RouteSpec } from "../../schemas/routes/route-spec.ts";
import type { Clock } from "../config.ts";
import type { StoredKey } from "../keys/api-keys.ts";
import type { Logger } from "../observability/logger.ts";
import type { ServiceMetrics } from "../observability/metrics.ts";
import type { AnswerCache } from "./answer-cache.ts";
import { ApiError } from "./api-error.ts";
import type { ApiRequest, HeaderReader } from "./api-request.ts";
import { authenticate, type Principal } from "./auth.ts";
import { clientAddress } from "./client-address.ts";
import type { Compressor } from "./compression.ts";
import { allowedMethods, applyCors } from "./cors.ts";
import { prepareCsvAnswer } from "./csv-answer.ts";
import { answerError, answerSuccess, HttpAnswer } from "./envelope.ts";
import { chooseRepresentation, type Representation } from "./negotiation.ts";
import { type PreparedAnswer, prepareAnswer } from "./prepared-answer.ts";
import { type RateLimiter, setRateLimitHeaders } from "./rate-limit.ts";
import { logAnswer, type RequestState, startRequest } from "./request-state.ts";
import type { RouteResult } from "./route-handler.ts";
import { type BoundRoute, createRouteTable, type PathMatch } from "./route-table.ts";

export type { BoundRoute } from "./route-table.ts";

export interface PipelineContext {
  environment: string;
  corsOrigins: string[];
  clock: Clock;
  keyLookup: (id: string) => StoredKey | undefined;
  rateLimiter: RateLimiter;
  /** Whether a durable store is bound (a completed ingestion is checked where routes read the index). */
  durableStorage: boolean;
  /** Proxies whose X-Forwarded-For names the client (client-address.ts); empty, the socket's peer is the client. */
  trustedProxies: ReadonlySet<string>;
  answers: AnswerCache;
  compressor: Compressor;
  logger: Logger;
  metrics: ServiceMetrics;
}

/** The service's answers to requests, for its transports. */
export interface Pipeline {
  answer(request: ApiRequest): HttpAnswer | Promise<HttpAnswer>;
  /** A request a transport could not read whole: the contract's error, counted under the unregistered route. */
  answerUnreadable(
    request: { headers?: HeaderReader; peerAddress: string | undefined; method?: string },
    code: "BAD_REQUEST" | "NOT_FOUND" | "INTERNAL",
    cause?: unknown,
  ): HttpAnswer;
  /** A failure no step answered (say, a transport could not write the answer): INTERNAL. */
  answerFailure(error: unknown): HttpAnswer;
  /** Whether an answer is kept for this exact URL (path and query), JSON or CSV. */
  holds(url: string): boolean;
}

/** Route name of unregistered paths, and of operator paths for everyone else. */
const UNMATCHED_ROUTE = "unmatched";
const UNKNOWN_ADDRESS = "unknown";
/** Causes logged once each, at most this many (a damaged index fails every request that reads it). */
const LOGGED_CAUSES_MAX = 100;

export function createPipeline(routes: readonly BoundRoute[], context: PipelineContext): Pipeline {
  const table = createRouteTable(routes);
  const loggedCauses = new Set<string>();

  function answer(request: ApiRequest): HttpAnswer | Promise<HttpAnswer> {
    // 1. Route: the match a kept answer for this URL was built with, else the route table's.
    const url = request.pathname + request.search;
    const match = context.answers.matchOf(url) ?? table.find(request.pathname);
    const routes = match?.routes;

    // 2. Key and scope. Everyone but an operator takes exactly the unregistered path's way, key check included, so
    // that neither the answer nor the time it takes tells where an operator route is.
    const access = routes ? routes[0]!.spec.access : "OPERATOR";
    const identity = identify(request, access);
    const principal = identity instanceof ApiError ? null : identity;
    if (!routes || (access === "OPERATOR" && !principal?.scopes.includes("operator")))
      return refuse("unmatched", request, new ApiError("NOT_FOUND"));
    const method = request.method === "HEAD" ? "GET" : request.method;
    const route = routes.find((candidate) => candidate.spec.method === method);
    const state = begin(route?.spec.name ?? routes[0]!.spec.name, request);
    if (principal) state.keyId = principal.keyId;
    const { preflight } = applyCors(request.method, request.headers, state.headers, context.corsOrigins, routes);

    // 3. Rate limit (a preflight counts as any request to its path).
    if (preflight || route?.spec.rateLimited !== false) {
      const limited = consumeRateLimit(state, preflight ? null : principal);
      if (limited) return limited;
    }
    if (preflight) return answerPreflight(state);

    try {
      if (identity instanceof ApiError) throw identity;
      if (!route) throw new ApiError("METHOD_NOT_ALLOWED", undefined, { headers: { allow: allowedMethods(routes) } });
      const { spec } = route;
      if (spec.access === "ECOSYSTEM_INTERNAL") {
        if (!principal) throw new ApiError("UNAUTHORIZED");
        if (spec.scope !== null && !principal.scopes.includes(spec.scope)) throw new ApiError("FORBIDDEN");
      }
      if (spec.requiresDurableStorage && !context.durableStorage) throw new ApiError("SERVICE_UNAVAILABLE");

      // 4. The answer in the representation asked for: a kept one while still true, else the handler's. 5. Envelope.
      const csv =
        spec.csv && chooseRepresentation(request.search, request.headers.get("accept")) === "csv"
          ? spec.csv
          : undefined;
      const prepared = answerFor(request, url, route, match, principal, state, csv);
      const envelope = (ready: PreparedAnswer) =>
        answerSuccess(request.headers, state, spec, ready, context.compressor, context.clock.now());
      if (!(prepared instanceof Promise)) return envelope(prepared);
      return prepared.then(envelope).catch((error: unknown) => answerError(state, toApiError(error)));
    } catch (error) {
      return answerError(state, toApiError(error));
    }
  }

  function answerFor(
    request: ApiRequest,
    url: string,
    route: BoundRoute,
    match: PathMatch,
    principal: Principal | null,
    state: RequestState,
    csv: CsvForm | undefined,
  ): PreparedAnswer | Promise<PreparedAnswer> {
    const cacheKey = answerCacheKey(url, csv ? "csv" : "json");
    const kept = context.answers.find(cacheKey, state.now);
    if (kept) {
      state.cache = "kept";
      return kept;
    }
    const query = new URLSearchParams(request.search);
    const result = route.handler({ query, params: match.params ?? {}, principal, now: state.now });
    const prepare = (ready: RouteResult) => {
      if (ready.headers) Object.assign(state.headers, ready.headers);
      state.cache = ready.cacheOutcome ?? "built";
      const prepared = csv ? prepareCsvAnswer(ready, csv, request) : prepareAnswer(ready, route.spec);
      // Kept when what it was built from can be checked at reuse (route-handlers.ts gives every route that reads
      // published data its check). Never an operator's: the Node listener would answer its URL faster than an unknown
      // path's.
      const { validUntil, stillCurrent } = ready;
      if (stillCurrent && validUntil !== undefined && route.spec.access !== "OPERATOR")
        context.answers.keep(cacheKey, { builtAt: state.now, validUntil, stillCurrent, match }, prepared);
      return prepared;
    };
    return result instanceof Promise ? result.then(prepare) : prepare(result);
  }

  /** The caller's key, null for none or an invalid one; an unreadable key file is CONFIGURATION_ERROR. */
  function identify(request: ApiRequest, access: RouteSpec["access"]): Principal | null | ApiError {
    if (access === "PUBLIC") return null;
    try {
      return authenticate(request.headers, context.keyLookup, context.environment);
    } catch (error) {
      context.logger.error(`the API key file could not be read: ${(error as Error).message}`);
      return new ApiError("CONFIGURATION_ERROR", "API keys cannot be checked on this deployment.");
    }
  }

  /**
   * An answer no route gives, counted under the unregistered route. An unmatched request (an operator path's for
   * everyone else too) is answered as any request: CORS (a preflight's 204), the public rate limit, then `error`.
   * One the server could not read is never a preflight, and its INTERNAL is logged with `cause`; a failure of ours is
   * not counted against the client's allowance.
   */
  function refuse(
    kind: "unmatched" | "unreadable" | "failure",
    request: ApiRequest,
    error: ApiError,
    cause?: unknown,
  ): HttpAnswer {
    const state = begin(UNMATCHED_ROUTE, request);
    const corsMethod = kind === "unmatched" ? request.method : "GET";
    const { preflight } = applyCors(corsMethod, request.headers, state.headers, context.corsOrigins, []);
    if (kind === "unreadable" && error.code === "INTERNAL")
      context.logger.error({ requestId: state.id, err: cause }, "internal error before routing");
    const limited = kind === "failure" ? undefined : consumeRateLimit(state, null);
    if (limited) return limited;
    return preflight ? answerPreflight(state) : answerError(state, error);
  }

  function answerPreflight(state: RequestState): HttpAnswer {
    logAnswer(state, 204);
    return new HttpAnswer(204, state.headers, null);
  }

  /** A request's state, with the client address its log line names and public rate limits count. */
  function begin(route: string, request: ApiRequest): RequestState {
    return startRequest(route, context.clock.now(), context, request, publicClient(request) ?? UNKNOWN_ADDRESS);
  }

  function publicClient(request: Pick<ApiRequest, "headers" | "peerAddress">): string | undefined {
    if (context.trustedProxies.size === 0) return request.peerAddress;
    return clientAddress(request.peerAddress, request.headers.get("x-forwarded-for"), context.trustedProxies);
  }

  /** Counts the request for its key, or its client's address; returns the 429 answer when the allowance is spent. */
  function consumeRateLimit(state: RequestState, principal: Principal | null): HttpAnswer | undefined {
    const client = principal ? principal.keyId : state.client;
    const decision = context.rateLimiter(state.route, client, principal !== null, state.now);
    setRateLimitHeaders(decision, state.headers);
    if (decision.allowed) return undefined;
    return answerError(state, new ApiError("RATE_LIMITED", undefined, { retryAfterSeconds: decision.resetSeconds }));
  }

  /** Anything that is not an ApiError is a bug: logged for operators, answered INTERNAL with nothing internal. */
  function toApiError(error: unknown): ApiError {
    if (!(error instanceof ApiError)) {
      context.logger.error({ err: error }, "internal error");
      return new ApiError("INTERNAL");
    }
    if (error.cause !== undefined) {
      const cause = error.cause instanceof Error ? error.cause.message : String(error.cause);
      if (!loggedCauses.has(cause) && loggedCauses.size < LOGGED_CAUSES_MAX) {
        loggedCauses.add(cause);
        context.logger.warn(
          { err: error.cause, code: error.code },
          `answered ${error.code}: ${cause} (logged once per cause)`,
        );
      }
    }
    return error;
  }

  return {
    answer,
    answerUnreadable: ({ headers = NO_HEADERS, peerAddress, method = "" }, code, cause) =>
      refuse("unreadable", { ...NO_REQUEST, method, headers, peerAddress }, new ApiError(code), cause),
    answerFailure: (error) => refuse("failure", NO_REQUEST, toApiError(error)),
    holds: (url) =>
      context.answers.holds(answerCacheKey(url, "json")) || context.answers.holds(answerCacheKey(url, "csv")),
  };
}

/** A URL's CSV form is kept under a key no URL can be (a URL holds no space), so neither is served for the other. */
function answerCacheKey(url: string, representation: Representation): string {
  return representation === "csv" ? `${url} csv` : url;
}

const NO_HEADERS: HeaderReader = { get: () => null, has: () => false };
/** What a log line names of a request the server could not read, or of a failure with no request. */
const NO_REQUEST: ApiRequest = { method: "", pathname: "", search: "", headers: NO_HEADERS, peerAddress: undefined };
