import type { IncomingHttpHeaders } from "node:http";
import { ERROR_TABLE, type ErrorCode } from "../../schemas/errors.ts";
import { ALL_ROUTES } from "../../schemas/routes/all-routes.ts";
import { assertContract, assertCsvContract } from "./contract.ts";
import type { HostileRequest } from "./hostile-requests.ts";

/**
 * What must hold for every answer, whatever was asked: no unexplained 5xx, a body valid against its schema (or none
 * where HTTP says none), the shared headers, and nothing about the machine, the store or the upstream leaking out.
 */

export interface ReceivedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** The only 5xx answers a client may legitimately get: the documented upstream and storage codes. */
const DOCUMENTED_5XX: Partial<Record<number, ErrorCode[]>> = {
  502: ["UPSTREAM_INVALID_PAYLOAD", "UPSTREAM_PAYLOAD_TOO_LARGE"],
  503: ["SERVICE_UNAVAILABLE", "UPSTREAM_UNAVAILABLE"],
  504: ["UPSTREAM_TIMEOUT"],
};

/**
 * Things that must never appear in an answer: literal strings and patterns, both case-sensitive, since the contract's
 * own prose legitimately says "error: { code … }" and "selects".
 */
export interface LeakMarkers {
  literals: string[];
  patterns: RegExp[];
}

/** Markers that hold for every service: stack frames, error class names, SQL and the build tree. */
export function standardLeakMarkers(extra: string[]): LeakMarkers {
  return {
    literals: [
      "Error:",
      "node_modules",
      "/work/",
      "SELECT ",
      "sqlite",
      "SQLITE",
      "<html",
      "Missing User-Agent",
      "Max 4 decimals",
      ...extra,
    ],
    patterns: [/\n\s+at \S/, /\bat (async )?\S+ \(/, /\.(ts|js|mjs):\d+:\d+/],
  };
}

function header(answer: ReceivedAnswer, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** A path as the server's own URL parsing sees it; paths that do not parse are only checked as errors. */
function urlOf(path: string): URL {
  try {
    return new URL(`http://service${path}`);
  } catch {
    return new URL("http://service/");
  }
}

const UNLIMITED_PATHS = new Set(ALL_ROUTES.filter((route) => route.rateLimited === false).map((route) => route.path));

/** Routes whose success body is not JSON (the operators' metrics text), by path: checked for their own media type. */
const OWN_MEDIA_TYPES = new Map(
  ALL_ROUTES.flatMap((route) => (route.mediaType ? [[route.path, route.mediaType] as const] : [])),
);

/** The path the server routes, dot segments resolved as a URL parser resolves them; the raw path when unparsable. */
function resolvedPath(path: string): string {
  try {
    return new URL(path, "http://service.invalid").pathname;
  } catch {
    return path;
  }
}

export function problemsWith(request: HostileRequest, answer: ReceivedAnswer, markers: LeakMarkers): string[] {
  const problems: string[] = [];
  const { status } = answer;
  const noBody = request.method === "HEAD" || status === 304 || status === 204;
  let body: any = null;

  const ownMediaType = status < 300 ? OWN_MEDIA_TYPES.get(resolvedPath(request.path)) : undefined;
  if (noBody) {
    if (answer.text !== "") problems.push(`a ${status} answer to ${request.method} has a body`);
  } else if (status < 300 && (header(answer, "content-type") ?? "").startsWith("text/csv")) {
    try {
      assertCsvContract(request.method, urlOf(request.path), answer.text);
    } catch (error) {
      problems.push((error as Error).message);
    }
  } else if (ownMediaType !== undefined) {
    if (header(answer, "content-type") !== ownMediaType)
      problems.push(`content-type ${header(answer, "content-type")} is not ${ownMediaType}`);
  } else if (!(header(answer, "content-type") ?? "").includes("application/json")) {
    problems.push(`content-type ${header(answer, "content-type")} is not JSON`);
  } else {
    try {
      body = JSON.parse(answer.text);
    } catch {
      problems.push("the body is not JSON");
    }
  }
  if (body !== null) {
    try {
      assertContract(request.method, urlOf(request.path), status, body);
    } catch (error) {
      problems.push((error as Error).message);
    }
    const code = body?.error?.code as ErrorCode | undefined;
    if (code && ERROR_TABLE[code] && ERROR_TABLE[code].status !== status)
      problems.push(`error code ${code} sent with status ${status}`);
  }

  if (status >= 500) {
    const allowed = DOCUMENTED_5XX[status] ?? [];
    const code = body?.error?.code;
    if (noBody ? allowed.length === 0 : !allowed.includes(code))
      problems.push(`undocumented ${status} ${code ?? "(no body)"}`);
  }

  const requestId = header(answer, "x-request-id");
  if (!requestId) problems.push("no X-Request-Id");
  const bodyRequestId = body?.meta?.requestId ?? body?.error?.requestId;
  if (bodyRequestId !== undefined && bodyRequestId !== requestId)
    problems.push(`X-Request-Id ${requestId} differs from the body's ${bodyRequestId}`);
  // Probes are not counted in rate limits, so they carry no RateLimit-* headers when their own route answered them.
  const probe = UNLIMITED_PATHS.has(resolvedPath(request.path)) && status !== 404 && status !== 405;
  for (const name of probe ? [] : ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"]) {
    if (!/^\d+$/.test(header(answer, name) ?? "")) problems.push(`${name} missing or not an integer`);
  }
  if ((status === 429 || status === 503) && !/^\d+$/.test(header(answer, "retry-after") ?? ""))
    problems.push(`${status} without Retry-After`);
  if (!/\borigin\b/i.test(header(answer, "vary") ?? "")) problems.push("no Vary: Origin");

  // A page for people (the front door, the reference page) is HTML by design; elsewhere HTML is a leak (a proxy's page).
  const page = status < 300 && (header(answer, "content-type") ?? "").startsWith("text/html");
  const pageMarkers = page
    ? { ...markers, literals: markers.literals.filter((literal) => literal !== "<html") }
    : markers;
  problems.push(...leaksIn(request, answer, pageMarkers));
  return problems;
}

/** Markers found in the answer. One the request itself carried is reflected input, judged by the schema, not a leak. */
function leaksIn(request: HostileRequest, answer: ReceivedAnswer, markers: LeakMarkers): string[] {
  const sent = [request.path, decodeLoosely(request.path), ...request.headers, request.body ?? ""].join("\n");
  const received = [answer.text, ...Object.values(answer.headers).flat()].join("\n");
  const found: string[] = [];
  for (const literal of markers.literals) {
    if (received.includes(literal) && !sent.includes(literal))
      found.push(`the answer contains ${JSON.stringify(literal)}`);
  }
  for (const pattern of markers.patterns) {
    if (pattern.test(received) && !pattern.test(sent)) found.push(`the answer matches ${pattern}`);
  }
  return found;
}

function decodeLoosely(path: string): string {
  try {
    return decodeURIComponent(path.replace(/\+/g, " "));
  } catch {
    return path;
  }
}
