import type { H3Event } from "h3";

/** A request's headers as the pipeline reads them (a `Headers`, or srvx's view of Node's). */
export interface HeaderReader {
  get(name: string): string | null;
  has(name: string): boolean;
}

/** The parts of a request the pipeline reads: its method and headers (srvx's request) and its client address. */
export interface IncomingRequest {
  readonly method: string;
  readonly headers: HeaderReader;
  readonly ip?: string;
  /** srvx's access to Node's own request, whose socket is the request's connection. */
  readonly runtime?: { node?: { req?: { socket?: object } } };
}

/**
 * A request the pipeline answers, as routed: by h3 (`event` set), or by the edge from a URL h3 routed before
 * (recognised-urls.ts; never a browser's request, which names an `Origin` and goes through h3's CORS handling).
 */
export interface Incoming {
  readonly req: IncomingRequest;
  readonly pathname: string;
  readonly search: string;
  readonly params: Readonly<Record<string, string>>;
  readonly event?: H3Event;
  /**
   * The key its answer is kept under (keptAnswerKey), when the edge has it from the URL's entry: text made once, whose
   * hash is computed once, not for every request as for text joined anew.
   */
  readonly keptAnswerKey?: string;
}

export function incomingOfEvent(event: H3Event): Incoming {
  return {
    req: event.req,
    pathname: event.url.pathname,
    search: event.url.search,
    params: (event.context.params ?? {}) as Record<string, string>,
    event,
  };
}
