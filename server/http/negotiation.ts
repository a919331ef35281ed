import Negotiator from "negotiator";
import { CSV_MEDIA_TYPE } from "../../schemas/responses/csv-tables.ts";
import { ApiError } from "./api-error.ts";
import { givenValue } from "./params.ts";

/**
 * Content negotiation, in one place: the coding of a body (`Accept-Encoding`) and, on routes with a CSV form, its
 * representation (`format`, else `Accept`). Clients send a handful of distinct header values, so each choice is
 * remembered by header value.
 */

export type ContentCoding = "br" | "gzip";
export type Representation = "json" | "csv";

export const JSON_MEDIA_TYPE = "application/json; charset=utf-8";

const CODINGS_BY_PREFERENCE = ["br", "gzip", "identity"];
/**
 * The media types as they are sent, parameters included: negotiator matches an Accept range that names parameters
 * (`text/csv; charset=utf-8`, the answer's own Content-Type) only to a type offered with the same ones. JSON first:
 * a client that accepts both equally (`*\/*`) gets JSON, as before CSV existed.
 */
const MEDIA_TYPES_BY_PREFERENCE = [JSON_MEDIA_TYPE, CSV_MEDIA_TYPE];
const REPRESENTATIONS: readonly Representation[] = ["json", "csv"];
/** More distinct header values than this and a memo starts again. */
const MEMO_LIMIT = 256;

const codingByHeader = new Map<string, ContentCoding | null>();
const representationByHeader = new Map<string, Representation>();

function remember<T>(memo: Map<string, T>, header: string, value: T): T {
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(header, value);
  return value;
}

/** The coding to send for a request's `Accept-Encoding` (q-values honoured; brotli preferred), null for none. */
export function chooseCoding(acceptEncoding: string | null): ContentCoding | null {
  if (acceptEncoding === null) return null;
  const known = codingByHeader.get(acceptEncoding);
  if (known !== undefined) return known;
  const chosen = preferred(acceptEncoding, "accept-encoding", "encoding", CODINGS_BY_PREFERENCE);
  return remember(codingByHeader, acceptEncoding, chosen === "br" || chosen === "gzip" ? chosen : null);
}

/**
 * The representation of an answer on a route with a CSV form: `format` (`json` or `csv`, any case; blank is absent;
 * anything else VALIDATION_FAILED) wins; else `Accept` (q-values honoured; at equal weight the range named first,
 * JSON for `*\/*` or when neither is named: an answer is never refused for its Accept header).
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
  const known = representationByHeader.get(accept);
  if (known !== undefined) return known;
  const chosen = preferred(accept, "accept", "mediaType", MEDIA_TYPES_BY_PREFERENCE);
  return remember(representationByHeader, accept, chosen === CSV_MEDIA_TYPE ? "csv" : "json");
}

/**
 * negotiator 1.x takes the server's preference for ties in q; its published types still describe 0.6.
 * Of codings a client weighs equally, brotli is sent (smaller at the same cost to us); of media types, JSON.
 */
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
