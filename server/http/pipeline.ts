import { randomUUID } from "node:crypto";
import { getRequestIP, handleCors, type H3Event } from "h3";
import { RETRY_AFTER_UNAVAILABLE_SECONDS } from "../../schemas/errors.ts";
import type { RouteSpec } from "../../schemas/routes/route-spec.ts";
import type { Clock } from "../config.ts";
import type { StoredKey } from "../keys/api-keys.ts";
import { ApiError } from "./api-error.ts";
import { authenticate, type Principal } from "./auth.ts";
import { rateLimitHeaders, type RateLimiter } from "./rate-limit.ts";
import { baseMeta, matchesIfNoneMatch, serialiseError, serialiseSuccess, weakEtag, type SerialisedSuccess } from "./respond.ts";
import type { RouteHandler } from "./route-handler.ts";

export interface PipelineContext {
  environment: string;
  corsOrigins: string[];
  clock: Clock;
  keyLookup: (id: string) => StoredKey | undefined;
  rateLimiter: RateLimiter;
  /** Whether a durable store is bound; routes reading the index also need a completed ingestion (checked where they read). */
  storageBound: boolean;
  log: (line: string) => void;
}

export interface BoundRoute {
  spec: RouteSpec;
  handler: RouteHandler;
}

/** Route name under which unregistered paths (and hidden operator paths) are counted. */
const UNMATCHED_ROUTE = "unmatched";

const CORS_ALLOWED_HEADERS = ["authorization", "x-api-key", "if-none-match", "content-type"];
const CORS_EXPOSED_HEADERS = ["x-request-id", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after", "etag"];

/** Answers every request to one path: method dispatch, CORS, auth, rate limit, storage gate, envelope, caching headers. */
export async function handlePath(event: H3Event, routes: BoundRoute[], context: PipelineContext): Promise<unknown> {
  // The router also matches `/x/` to `/x`; a path we do not publish must not answer, and a bad slug must not fall through.
  if (event.url.pathname.length > 1 && event.url.pathname.endsWith("/")) return handleUnmatched(event, context);
  const request = startRequest(event, context);
  const access = routes[0]!.spec.access;
  const preflight = handleCors(event, corsOptions(context, access === "OPERATOR" ? [] : routes));
  if (preflight !== false) return preflight;

  const method = event.req.method === "HEAD" ? "GET" : event.req.method;
  const route = routes.find((candidate) => candidate.spec.method === method);
  const identity = identify(event, access, context);
  const principal = identity instanceof ApiError ? null : identity;

  if (access === "OPERATOR" && !principal?.scopes.includes("operator")) return answerUnmatched(event, request, context);

  const limited = consumeRateLimit(event, request, route?.spec.name ?? routes[0]!.spec.name, principal, context);
  if (limited) return limited;

  try {
    if (identity instanceof ApiError) throw identity;
    if (!route) {
      throw new ApiError("METHOD_NOT_ALLOWED", undefined, { headers: { allow: allowedMethods(routes) } });
    }
    const { spec, handler } = route;
    if (spec.access === "ECOSYSTEM_INTERNAL") {
      if (!principal) throw new ApiError("UNAUTHORIZED");
      if (spec.scope !== null && !principal.scopes.includes(spec.scope)) throw new ApiError("FORBIDDEN");
    }
    if (spec.requiresDurableStorage && !context.storageBound) {
      throw new ApiError("SERVICE_UNAVAILABLE");
    }
    const result = await handler({
      query: event.url.searchParams,
      params: (event.context.params ?? {}) as Record<string, string>,
      principal,
      now: request.now,
    });
    return answerSuccess(event, spec, serialiseSuccess(result, baseMeta(request.id, request.now), spec));
  } catch (error) {
    return answerError(event, request, toApiError(error, context));
  }
}

/** Unregistered paths: 404 with the same headers as any other answer. */
export function handleUnmatched(event: H3Event, context: PipelineContext): unknown {
  const request = startRequest(event, context);
  const preflight = handleCors(event, corsOptions(context, []));
  if (preflight !== false) return preflight;
  return answerUnmatched(event, request, context);
}

/** Failures h3 raises before routing (a malformed URL): shaped, counted and headed like every other answer. */
export function answerFrameworkError(event: H3Event, error: { status: number; message: string }, context: PipelineContext): unknown {
  const request = startRequest(event, context);
  handleCors(event, corsOptions(context, []));
  if (error.status >= 500) context.log(`internal error before routing: ${error.message}`);
  const limited = consumeRateLimit(event, request, UNMATCHED_ROUTE, null, context);
  return limited ?? answerError(event, request, new ApiError(error.status === 404 ? "NOT_FOUND" : error.status < 500 ? "BAD_REQUEST" : "INTERNAL"));
}

/**
 * The caller's key, null for none or an invalid one. A key file that cannot be read is a configuration problem:
 * logged for operators and answered CONFIGURATION_ERROR (an operator path still answers like an unregistered one).
 */
function identify(event: H3Event, access: BoundRoute["spec"]["access"], context: PipelineContext): Principal | null | ApiError {
  if (access === "PUBLIC") return null;
  try {
    return authenticate(event.req.headers, context.keyLookup, context.environment);
  } catch (error) {
    context.log(`the API key file could not be read: ${(error as Error).message}`);
    return new ApiError("CONFIGURATION_ERROR", "API keys cannot be checked on this deployment.");
  }
}

interface RequestState {
  id: string;
  now: number;
}

function startRequest(event: H3Event, context: PipelineContext): RequestState {
  const request = { id: randomUUID(), now: context.clock.now() };
  event.res.headers.set("x-request-id", request.id);
  return request;
}

function corsOptions(context: PipelineContext, routes: BoundRoute[]) {
  return {
    origin: context.corsOrigins,
    methods: routes.length > 0 ? allowedMethods(routes).split(", ") : ["GET", "HEAD"],
    allowHeaders: CORS_ALLOWED_HEADERS,
    exposeHeaders: CORS_EXPOSED_HEADERS,
    maxAge: "600",
  };
}

function allowedMethods(routes: BoundRoute[]): string {
  const methods = routes.map((route) => route.spec.method);
  return (methods.includes("GET") ? [...methods, "HEAD"] : methods).join(", ");
}

function answerUnmatched(event: H3Event, request: RequestState, context: PipelineContext): unknown {
  const limited = consumeRateLimit(event, request, UNMATCHED_ROUTE, null, context);
  return limited ?? answerError(event, request, new ApiError("NOT_FOUND"));
}

/** Counts the request; returns the 429 answer when the allowance is spent. */
function consumeRateLimit(event: H3Event, request: RequestState, routeName: string, principal: Principal | null, context: PipelineContext): unknown {
  const client = principal ? `key:${principal.keyId}` : `ip:${getRequestIP(event) ?? "unknown"}`;
  const decision = context.rateLimiter(routeName, client, principal !== null, request.now);
  for (const [name, value] of Object.entries(rateLimitHeaders(decision))) event.res.headers.set(name, value);
  if (decision.allowed) return undefined;
  return answerError(event, request, new ApiError("RATE_LIMITED", undefined, { retryAfterSeconds: decision.resetSeconds }));
}

function answerSuccess(event: H3Event, spec: RouteSpec, success: SerialisedSuccess): unknown {
  event.res.headers.set("content-type", "application/json; charset=utf-8");
  if (spec.publicCacheSeconds !== null) {
    const etag = weakEtag(success.dataText);
    event.res.headers.set("cache-control", `public, max-age=${spec.publicCacheSeconds}`);
    event.res.headers.set("etag", etag);
    if (matchesIfNoneMatch(event.req.headers.get("if-none-match"), etag)) {
      event.res.status = 304;
      return null;
    }
  } else {
    event.res.headers.set("cache-control", "no-store");
  }
  event.res.status = success.status;
  return success.body;
}

function answerError(event: H3Event, request: RequestState, error: ApiError): string {
  event.res.status = error.status;
  event.res.headers.set("content-type", "application/json; charset=utf-8");
  event.res.headers.set("cache-control", "no-store");
  const retryAfter = error.retryAfterSeconds ?? (error.status === 503 ? RETRY_AFTER_UNAVAILABLE_SECONDS : null);
  if (retryAfter !== null) event.res.headers.set("retry-after", String(retryAfter));
  for (const [name, value] of Object.entries(error.headers)) event.res.headers.set(name, value);
  return serialiseError(error, request.id);
}

/** Anything that is not an ApiError is a bug: log it for operators, answer INTERNAL with nothing internal. */
function toApiError(error: unknown, context: PipelineContext): ApiError {
  if (error instanceof ApiError) return error;
  context.log(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return new ApiError("INTERNAL");
}
