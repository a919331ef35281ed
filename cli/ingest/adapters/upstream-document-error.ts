import type { UpstreamSource } from "../records.ts";

/**
 * `rejected-by-publisher`: the document is the publisher saying no (BLS answers quota and request errors
 * inside an HTTP 200). `malformed`: the document is not in the shape the adapter reads, so nothing in it is trusted.
 */
type UpstreamDocumentFailure = "rejected-by-publisher" | "malformed";

/** The whole document is unusable; an adapter never returns a partial or empty result in its place. */
export class UpstreamDocumentError extends Error {
  readonly source: UpstreamSource;
  readonly reason: UpstreamDocumentFailure;
  constructor(source: UpstreamSource, reason: UpstreamDocumentFailure, message: string) {
    super(`${source}: ${message}`);
    this.name = "UpstreamDocumentError";
    this.source = source;
    this.reason = reason;
  }
}
