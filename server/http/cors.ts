import { type H3Event, handleCors } from "h3";
import type { HeaderReader } from "./api-request.ts";
import type { BoundRoute } from "./route-table.ts";

// Accept chooses JSON or CSV (negotiation.ts); a browser asks leave to send it when its value is not CORS-safelisted.
const CORS_ALLOWED_HEADERS = ["authorization", "x-api-key", "if-none-match", "content-type", "accept"];
const CORS_EXPOSED_HEADERS = [
  "x-request-id",
  "ratelimit-limit",
  "ratelimit-remaining",
  "ratelimit-reset",
  "retry-after",
  "etag",
  // The CSV form's next page and publishers' terms (csv-answer.ts).
  "link",
];
const EXPOSED_HEADERS_VALUE = CORS_EXPOSED_HEADERS.join(",");

/**
 * CORS is an allowlist, by h3's rules: adds the CORS headers and says whether the request is a preflight. h3 reads only
 * the method and headers, so it is given that much of the request. Without `Origin`, h3's headers from a constant.
 */
export function applyCors(
  method: string,
  requestHeaders: HeaderReader,
  headers: Record<string, string>,
  origins: string[],
  routes: readonly BoundRoute[],
): { preflight: boolean } {
  if (!requestHeaders.has("origin")) {
    headers.vary = "origin";
    headers["access-control-expose-headers"] = EXPOSED_HEADERS_VALUE;
    return { preflight: false };
  }
  const response = { headers: new Headers(), errHeaders: new Headers() };
  const preflight = handleCors({ req: { method, headers: requestHeaders }, res: response } as unknown as H3Event, {
    origin: origins,
    methods: routes.length > 0 ? allowedMethods(routes).split(", ") : ["GET", "HEAD"],
    allowHeaders: CORS_ALLOWED_HEADERS,
    exposeHeaders: CORS_EXPOSED_HEADERS,
    maxAge: "600",
  });
  for (const [name, value] of response.headers) headers[name] = value;
  return { preflight: preflight !== false };
}

/** The `Allow` list of a path: its methods, with HEAD wherever GET is. */
export function allowedMethods(routes: readonly BoundRoute[]): string {
  const methods = routes.map((route) => route.spec.method);
  return (methods.includes("GET") ? [...methods, "HEAD"] : methods).join(", ");
}
