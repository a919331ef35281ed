import { LRUCache } from "lru-cache";
import Negotiator from "negotiator";
import { CSV_MEDIA_TYPE } from "../../schemas/responses/csv-tables.ts";
import { ApiError } from "./api-error.ts";
import { givenValue } from "./params.ts";

// Content negotiation in one place. Clients send a handful of distinct header values, so each choice is remembered
// by header value (docs/performance.md).

export type ContentCoding = "br" | "gzip";
export type Representation = "json" | "csv";

export const JSON_MEDIA_TYPE = "application/json; charset=utf-8";

const CODINGS_BY_PREFERENCE = ["br", "gzip", "identity"];
/**
 * With their parameters: negotiator matches a range naming parameters only to a type offered with the same ones.
 * JSON first: a client that accepts both equally (`*\/*`) gets JSON, as before CSV existed.
 */
const MEDIA_TYPES_BY_PREFERENCE = [JSON_MEDIA_TYPE, CSV_MEDIA_TYPE];
const REPRESENTATIONS: readonly Representation[] = ["json", "csv"];
const MEMO_LIMIT = 256;

/** "identity" stands for no coding (lru-cache holds no null). */
const codingByHeader = new LRUCache<string, ContentCoding | "identity">({ max: MEMO_LIMIT });
const representationByHeader = new LRUCache<string, Representation>({ max: MEMO_LIMIT });

/** The coding to send for a request's `Accept-Encoding` (q-values honoured; brotli preferred), null for none. */
export function chooseCoding(acceptEncoding: string | null): ContentCoding | null {
  if (acceptEncoding === null) return null;
  let coding = codingByHeader.get(acceptEncoding);
  if (coding === undefined) {
    const chosen = preferred(acceptEncoding, "accept-encoding", "encoding", CODINGS_BY_PREFERENCE);
    coding = chosen === "br" || chosen === "gzip" ? chosen : "identity";
    codingByHeader.set(acceptEncoding, coding);
  }
  return coding === "identity" ? null : coding;
}

/**
 * On a route with a CSV form: `format` (`json` or `csv`, any case; blank is absent) wins; else `Accept`, JSON for
 * `*\/*` or when neither is named: an answer is never refused for its Accept header.
 */
export function chooseRepresentation(search: string, accept: string | null): Representation {
  // Most requests name no format: the query is parsed only when it may (a percent-encoded name included).
  if (search.includes("format") || search.includes("%")) {
    const format = givenValue(new URLSearchParams(search).get("format"))?.toLowerCase() ?? null;
    if (format !== null) {
      const chosen = REPRESENTATIONS.find((name) => name === format);
      if (!chosen) throw new ApiError("VALIDATION_FAILED", "format must be json or csv.");
      return chosen;
    }
  }
  if (accept === null) return "json";
  let representation = representationByHeader.get(accept);
  if (representation === undefined) {
    const chosen = preferred(accept, "accept", "mediaType", MEDIA_TYPES_BY_PREFERENCE);
    representation = chosen === CSV_MEDIA_TYPE ? "csv" : "json";
    representationByHeader.set(accept, representation);
  }
  return representation;
}

/** negotiator 1.x takes the server's preference for ties in q (brotli, JSON); its published types describe 0.6. */
function preferred(
  header: string,
  name: "accept" | "accept-encoding",
  method: "encoding" | "mediaType",
  available: string[],
): string | undefined {
  const negotiator = new Negotiator({ headers: { [name]: header } });
  const choose = negotiator[method] as (available: string[], options: { preferred: string[] }) => string | undefined;
  return choose.call(negotiator, available, { preferred: available });
}
