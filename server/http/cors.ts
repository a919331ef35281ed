import { handleCors } from "h3";
import type { Incoming } from "./incoming.ts";

const CORS_ALLOWED_HEADERS = ["authorization", "x-api-key", "if-none-match", "content-type"];
const CORS_EXPOSED_HEADERS = [
  "x-request-id",
  "ratelimit-limit",
  "ratelimit-remaining",
  "ratelimit-reset",
  "retry-after",
  "etag",
];
const EXPOSED_HEADERS_VALUE = CORS_EXPOSED_HEADERS.join(",");

/**
 * Adds what h3's CORS handling answers to a request that names no origin: computed once, not per request, and set
 * member by member (Object.assign took about 0.3 µs a request, `perf`).
 */
export function addNoOriginCorsHeaders(headers: Record<string, string>): void {
  headers.vary = "origin";
  headers["access-control-expose-headers"] = EXPOSED_HEADERS_VALUE;
}

/** The routes of one path, as far as CORS and `Allow` need them. */
type PathRoutes = readonly { spec: { method: string } }[];

/**
 * CORS is an allowlist (h3's handling). A request without an `Origin` header (every non-browser client) gets the
 * same headers h3 would give it, from a constant; only browsers' requests go through h3's CORS code. Returns h3's
 * answer to a preflight, or false when the request goes on; the CORS headers are added to `headers`. A request the
 * edge answers (no h3 event) never names an origin (recognised-urls.ts).
 */
export function applyCors(
  incoming: Incoming,
  headers: Record<string, string>,
  origins: string[],
  routes: PathRoutes,
): false | unknown {
  const { event } = incoming;
  if (!event || !incoming.req.headers.has("origin")) {
    addNoOriginCorsHeaders(headers);
    return false;
  }
  const preflight = handleCors(event, {
    origin: origins,
    methods: routes.length > 0 ? allowedMethods(routes).split(", ") : ["GET", "HEAD"],
    allowHeaders: CORS_ALLOWED_HEADERS,
    exposeHeaders: CORS_EXPOSED_HEADERS,
    maxAge: "600",
  });
  // h3 keeps its CORS headers on the event; answers built outside its flow (framework errors) need them too.
  if (preflight === false) event.res.headers.forEach((value, name) => (headers[name] = value));
  return preflight;
}

/** The `Allow` list of a path: its methods, with HEAD wherever GET is. */
export function allowedMethods(routes: PathRoutes): string {
  const methods = routes.map((route) => route.spec.method);
  return (methods.includes("GET") ? [...methods, "HEAD"] : methods).join(", ");
}
