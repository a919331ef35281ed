import { SegmentedLru } from "../memory/segmented-lru.ts";
import type { IncomingMessage } from "node:http";
import type { Incoming } from "./incoming.ts";
import { incomingRequestOf } from "./node-exchange.ts";
import type { HttpAnswer } from "./request-answer.ts";
import {
  answerPath,
  answerUnexpectedFailure,
  keptAnswerKey,
  type BoundRoute,
  type PipelineContext,
} from "./pipeline.ts";

/**
 * URLs h3 has routed to a kept or repeated answer (kept-answers.ts), remembered with their route and parameters, so
 * that the next request for the very same URL goes to the pipeline straight from Node's request (the edge), without
 * srvx's Request and Response objects or h3's event, router and response merging (README, Performance). Routing is a
 * function of the URL, so what h3 decided once holds for every later request of that URL; the pipeline still does all
 * per-request work (key, rate limit, CORS headers, the kept answer's validity, the log line).
 */
export interface RecognisedUrls {
  /** Called by the pipeline for a request h3 routed whose answer was kept, or found again by its identity. */
  remember(incoming: Incoming, routes: BoundRoute[]): void;
  find(url: string): RecognisedUrl | undefined;
  /** Bytes currently held, as counted against the bound. */
  readonly bytes: number;
}

interface RecognisedUrl {
  routes: BoundRoute[];
  pathname: string;
  search: string;
  params: Readonly<Record<string, string>>;
  /** The key the GET route's answer is kept under: the edge answers GET and HEAD only, both with that route. */
  keptAnswerKey: string | undefined;
}

/** 4 MB of URLs by default: some tens of thousands. */
export const DEFAULT_RECOGNISED_URL_BYTES = 4 * 1024 * 1024;

/** Per entry beyond its URL: the route match object and the map's bookkeeping. */
const ENTRY_OVERHEAD_BYTES = 256;

/**
 * Only URLs that h3 reads exactly as sent (WHATWG URL parsing leaves them as they are: no percent-encoded path,
 * no dot segments, no characters the query encoding rewrites) are remembered, so the raw request line names them.
 */
const VERBATIM_URL = /^\/[A-Za-z0-9\-._~/]*(\?[A-Za-z0-9\-._~!$&()*+,;=:@/?%]+)?$/;
const DOT_OR_EMPTY_SEGMENT = /\/\.{0,2}(\/|$)/;

export function createRecognisedUrls(maxBytes: number = DEFAULT_RECOGNISED_URL_BYTES): RecognisedUrls {
  const cache = new SegmentedLru<string, RecognisedUrl>({
    maxSize: maxBytes,
    sizeCalculation: (entry, url) => (url.length + (entry.keptAnswerKey?.length ?? 0)) * 2 + ENTRY_OVERHEAD_BYTES,
  });
  return {
    remember(incoming, routes) {
      if (!incoming.event || routes.some((route) => route.spec.access === "OPERATOR")) return;
      const url = incoming.pathname + incoming.search;
      if (cache.has(url) || !VERBATIM_URL.test(url) || DOT_OR_EMPTY_SEGMENT.test(incoming.pathname)) return;
      const get = routes.find((route) => route.spec.method === "GET");
      const answerKey = get && keptAnswerKey(get.spec.name, incoming.pathname, incoming.search);
      cache.set(url, {
        routes,
        pathname: incoming.pathname,
        search: incoming.search,
        params: { ...incoming.params },
        keptAnswerKey: answerKey,
      });
    },
    find: (url) => cache.get(url),
    get bytes() {
      return cache.calculatedSize;
    },
  };
}

/**
 * The edge: answers a request whose URL h3 routed before, straight from Node's request, or returns undefined for srvx
 * and h3 to take it. A browser's request (it names an `Origin`) and every method but GET and HEAD always go through h3.
 */
export function answerRecognised(
  req: IncomingMessage,
  context: PipelineContext,
): HttpAnswer | Promise<HttpAnswer> | undefined {
  if (!req.url || (req.method !== "GET" && req.method !== "HEAD") || req.headers.origin !== undefined) return undefined;
  const known = context.recognisedUrls.find(req.url);
  if (!known) return undefined;
  try {
    // Without an h3 event the pipeline answers with an HttpAnswer (never h3's preflight value, which needs an Origin).
    const answer = answerPath(
      {
        req: incomingRequestOf(req),
        pathname: known.pathname,
        search: known.search,
        params: known.params,
        keptAnswerKey: known.keptAnswerKey,
      },
      known.routes,
      context,
    ) as HttpAnswer | Promise<HttpAnswer>;
    return answer instanceof Promise
      ? answer.catch((error: unknown) => answerUnexpectedFailure(error, context))
      : answer;
  } catch (error) {
    return answerUnexpectedFailure(error, context);
  }
}
