/**
 * A request's headers as the pipeline reads them: a `Headers` (h3's request), or Node's read alike (node-listener.ts).
 */
export interface HeaderReader {
  /** The header's value, every value of a repeated header joined with ", "; null when absent. Names in lower case. */
  get(name: string): string | null;
  has(name: string): boolean;
}

/** A request as every transport hands it to the pipeline: nothing of the transport's own objects. */
export interface ApiRequest {
  method: string;
  /** The URL's path as routed: percent-encoding and dot segments as the WHATWG URL parser leaves them. */
  pathname: string;
  /** The query with its `?`, or empty. */
  search: string;
  headers: HeaderReader;
  /** The address of the connection's peer, before any trusted proxy's `X-Forwarded-For` is read. */
  peerAddress: string | undefined;
}
