import { createHash, randomUUID } from "node:crypto";
import { RESPONSE_CEILING_BYTES } from "../../schemas/limits.ts";
import { ownedBytes } from "../memory/owned-bytes.ts";
import type { ApiError } from "./api-error.ts";
import { chooseCoding, COMPRESSION_MIN_BYTES, type Compressor, type ContentCoding } from "./compression.ts";
import type { RouteResult } from "./route-handler.ts";

/**
 * A `data` section serialised once by whoever owns it (a weather cache entry's rendering, a kept answer), as the
 * UTF-8 bytes the socket is given, so the request path neither serialises nor encodes it again. Anything else that
 * serialises it gets the same JSON.
 */
export class SerialisedData {
  readonly bytes: Buffer<ArrayBuffer>;
  readonly etag: string;
  constructor(json: string) {
    this.bytes = ownedBytes(json);
    this.etag = weakEtag(this.bytes);
  }

  toJSON(): unknown {
    return JSON.parse(this.bytes.toString());
  }
}

/** The freshness fields every success body carries after `requestId` and `generatedAt`; routes serving cached data override them. */
const BASE_FRESHNESS = { cached: false, cacheAgeSeconds: 0, stale: false, degraded: false } as const;

/**
 * `meta` fields that are the same in every answer of a route (units, attribution records, precision texts),
 * serialised once when the route is built rather than in every response.
 */
export class StaticMeta {
  readonly members: string;
  constructor(fields: Record<string, unknown>) {
    this.members = JSON.stringify(fields).slice(1, -1);
  }
}

/**
 * A success answer serialised except for the two fields that belong to one response, `requestId` and `generatedAt`
 * (the first two of `meta`): they are spliced in by `renderAnswer`, so a kept answer is never serialised again.
 */
export interface PreparedAnswer {
  status: number;
  data: SerialisedData;
  /** `meta` after its first two fields, from the comma through the closing braces of meta and body; empty when bare. */
  metaRest: Buffer<ArrayBuffer>;
  bare: boolean;
  /** Bytes the answer holds, for memory bounds. */
  size: number;
}

// Same lengths as real values, so that the cut to the response ceiling is measured on the body that will be sent.
const PLACEHOLDER_ID = randomUUID();
const PLACEHOLDER_TIME = new Date(0).toISOString();

/** The `{ data, meta }` answer, cut to fit the response ceiling when the route says how (spec "Limits"). */
export function prepareAnswer(result: RouteResult, shape: { bare?: boolean; successStatus?: number }): PreparedAnswer {
  const status = shape.successStatus ?? 200;
  const bare = shape.bare ?? false;
  const prepare = (data: unknown, routeMeta: Record<string, unknown> | undefined, truncated: boolean | null): PreparedAnswer => {
    const serialised = data instanceof SerialisedData ? data : new SerialisedData(JSON.stringify(data));
    if (bare) return { status, data: serialised, metaRest: Buffer.alloc(0), bare, size: serialised.bytes.length };
    if (routeMeta && ("requestId" in routeMeta || "generatedAt" in routeMeta)) throw new Error("a route's meta must not replace requestId or generatedAt");
    // A page that could be cut says whether it was, so clients can tell "not cut" from "not a paged answer".
    const meta = { ...BASE_FRESHNESS, ...routeMeta, ...(truncated === null ? {} : { truncated }) };
    const members = JSON.stringify(meta).slice(1, -1);
    const metaRest = Buffer.from(`,${members}${result.staticMeta ? `,${result.staticMeta.members}` : ""}}}`);
    return { status, data: serialised, metaRest, bare, size: serialised.bytes.length + metaRest.length };
  };
  const fits = (answer: PreparedAnswer) => renderAnswer(answer, PLACEHOLDER_ID, PLACEHOLDER_TIME).length <= RESPONSE_CEILING_BYTES;
  const whole = prepare(result.data, result.meta, result.cut ? false : null);
  if (!result.cut || fits(whole)) return whole;

  const cut = result.cut;
  const keeping = (n: number) => {
    const kept = cut.keep(n);
    return prepare(kept.data, kept.meta, true);
  };
  let low = 0;
  let high = cut.count - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(keeping(middle))) low = middle;
    else high = middle - 1;
  }
  return keeping(low);
}

const BODY_HEAD = Buffer.from(`{"data":`);

const NO_BYTES = Buffer.alloc(0);

/** The two `meta` fields of one response, which open `meta` (both values are ASCII). */
function ownMembers(requestId: string, generatedAt: string): string {
  return `,"meta":{"requestId":"${requestId}","generatedAt":"${generatedAt}"`;
}

/** The body of one response: the prepared answer with this response's `requestId` and `generatedAt`. */
export function renderAnswer(answer: PreparedAnswer, requestId: string, generatedAt: string): Buffer<ArrayBuffer> {
  if (answer.bare) return answer.data.bytes;
  const own = ownMembers(requestId, generatedAt);
  const body = Buffer.allocUnsafe(BODY_HEAD.length + answer.data.bytes.length + own.length + answer.metaRest.length);
  let at = BODY_HEAD.copy(body, 0);
  at += answer.data.bytes.copy(body, at);
  at += body.write(own, at, "latin1");
  answer.metaRest.copy(body, at);
  return body;
}

/**
 * The body of one response: compressed in brotli or gzip when it is over COMPRESSION_MIN_BYTES and the request's
 * `Accept-Encoding` allows (then `content-encoding` is set, and `vary` names the header for every large answer).
 */
export function responseBody(
  answer: PreparedAnswer, requestId: string, generatedAt: string, requestHeaders: { get(name: string): string | null },
  compressor: Compressor, headers: Record<string, string>,
): Buffer<ArrayBuffer> {
  if (!varyOnEncoding(answer, headers)) return renderAnswer(answer, requestId, generatedAt);
  const coding = chooseCoding(requestHeaders.get("accept-encoding"));
  if (coding === null) return renderAnswer(answer, requestId, generatedAt);
  headers["content-encoding"] = coding;
  return renderEncodedAnswer(answer, requestId, generatedAt, coding, compressor);
}

/**
 * Whether the answer is large enough to be compressed, naming `accept-encoding` in `vary` when it is: on the answer
 * and on a 304 that stands for it alike (RFC 9110 section 15.4.5), so caches key its copies by coding.
 */
export function varyOnEncoding(answer: PreparedAnswer, headers: Record<string, string>): boolean {
  if (answerLength(answer) < COMPRESSION_MIN_BYTES) return false;
  headers.vary = headers.vary === "origin" ? "origin, accept-encoding" : headers.vary ? `${headers.vary}, accept-encoding` : "accept-encoding";
  return true;
}

/**
 * The body in a content coding: the answer's constant head (`data`) is compressed once and kept by the compressor
 * under the data's ETag; only this response's tail is framed per response (compression.ts).
 */
function renderEncodedAnswer(answer: PreparedAnswer, requestId: string, generatedAt: string, coding: ContentCoding, compressor: Compressor): Buffer<ArrayBuffer> {
  if (answer.bare) return compressor.encode(`bare ${answer.data.etag}`, () => answer.data.bytes, NO_BYTES, coding);
  const own = ownMembers(requestId, generatedAt);
  const tail = Buffer.allocUnsafe(own.length + answer.metaRest.length);
  answer.metaRest.copy(tail, tail.write(own, 0, "latin1"));
  return compressor.encode(`envelope ${answer.data.etag}`, () => Buffer.concat([BODY_HEAD, answer.data.bytes]), tail, coding);
}

/** Bytes of the answer's body, within the length of the two per-response fields. */
function answerLength(answer: PreparedAnswer): number {
  return answer.bare ? answer.data.bytes.length : BODY_HEAD.length + answer.data.bytes.length + answer.metaRest.length;
}

export function serialiseError(error: ApiError, requestId: string): string {
  return JSON.stringify({ error: { code: error.code, message: error.message, requestId } });
}

/** A weak validator over the serialised `data` section only, so a new requestId or generatedAt does not change it. */
function weakEtag(data: string | Buffer): string {
  return `W/"${createHash("sha256").update(data).digest("base64url").slice(0, 27)}"`;
}

/** RFC 9110 weak comparison against an `If-None-Match` list. */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (header === null) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}
