// The pipeline's last step: an answer as status, headers and body (the `{ data, meta }` envelope), logged and counted.
import { RETRY_AFTER_UNAVAILABLE_SECONDS } from "../../schemas/errors.ts";
import type { RouteSpec } from "../../schemas/routes/route-spec.ts";
import { isoInstant } from "../time/iso-instant.ts";
import type { ApiError } from "./api-error.ts";
import type { HeaderReader } from "./api-request.ts";
import { COMPRESSION_MIN_BYTES, type Compressor } from "./compression.ts";
import { type ContentCoding, chooseCoding, JSON_MEDIA_TYPE } from "./negotiation.ts";
import { BODY_HEAD, ownMembers, type PreparedAnswer } from "./prepared-answer.ts";
import { logAnswer, type RequestState } from "./request-state.ts";
import { type ResponseBody, SplicedBody } from "./spliced-body.ts";

/** An answer as the pipeline hands it to a transport: no `Headers` or `Response` object. */
export class HttpAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: ResponseBody | null;
  constructor(status: number, headers: Record<string, string>, body: ResponseBody | null) {
    this.status = status;
    this.headers = headers;
    this.body = body;
  }
}

/** A success answer: caching headers, 304 against If-None-Match, the body in the coding the client accepts. */
export function answerSuccess(
  requestHeaders: HeaderReader,
  state: RequestState,
  spec: RouteSpec,
  answer: PreparedAnswer,
  compressor: Compressor,
  generatedAt: number,
): HttpAnswer {
  const { headers } = state;
  headers["content-type"] = answer.mediaType ?? spec.mediaType ?? JSON_MEDIA_TYPE;
  if (answer.headers) Object.assign(headers, answer.headers);
  // The same URL answers JSON or CSV by its Accept header: caches must key its copies by it.
  if (spec.csv) addVary(headers, "accept");
  if (spec.publicCacheSeconds !== null) {
    headers["cache-control"] = `public, max-age=${spec.publicCacheSeconds}`;
    headers.etag = answer.data.etag;
    if (matchesIfNoneMatch(requestHeaders.get("if-none-match"), answer.data.etag)) {
      // RFC 9110 section 15.4.5: a 304 names what its 200 would, so caches key its copies by coding.
      if (isCompressible(answer)) addVary(headers, "accept-encoding");
      logAnswer(state, 304);
      return new HttpAnswer(304, headers, null);
    }
  } else {
    headers["cache-control"] = "no-store";
  }
  // generatedAt is when the response is built: an answer that waited on a provider is younger than its request.
  const body = responseBody(answer, state.id, isoInstant(generatedAt), requestHeaders, compressor, headers);
  logAnswer(state, answer.status);
  return new HttpAnswer(answer.status, headers, body);
}

export function answerError(state: RequestState, error: ApiError): HttpAnswer {
  const { headers } = state;
  headers["content-type"] = JSON_MEDIA_TYPE;
  headers["cache-control"] = "no-store";
  const retryAfter = error.retryAfterSeconds ?? (error.status === 503 ? RETRY_AFTER_UNAVAILABLE_SECONDS : null);
  if (retryAfter !== null) headers["retry-after"] = String(retryAfter);
  // RFC 9110 section 11.6.1: a 401 names the scheme that would succeed (the key may also come as X-API-Key).
  if (error.status === 401) headers["www-authenticate"] = 'Bearer realm="service"';
  Object.assign(headers, error.headers);
  const body = JSON.stringify({ error: { code: error.code, message: error.message, requestId: state.id } });
  // Stated here, not by Node: a HEAD (whose body Node drops) carries the length its GET would.
  headers["content-length"] = String(Buffer.byteLength(body));
  logAnswer(state, error.status);
  return new HttpAnswer(error.status, headers, body);
}

const ENVELOPE_HEAD = Buffer.from(BODY_HEAD);
const NO_BYTES = Buffer.alloc(0);
const OWN_MEMBERS_FRAME_LENGTH = ownMembers("", "").length;

/** This response's body: text when the `data` section is kept as text, else spliced around its kept bytes. */
export function renderAnswer(answer: PreparedAnswer, requestId: string, generatedAt: string): ResponseBody {
  const { content } = answer.data;
  if (answer.bare) return content;
  const own = ownMembers(requestId, generatedAt);
  if (typeof content === "string") return BODY_HEAD + content + own + answer.metaRest;
  return new SplicedBody([ENVELOPE_HEAD, content, own + answer.metaRest], answer.fixedBytes + own.length);
}

/**
 * This response's body, its `content-length` set (as for errors, a HEAD carries its GET's), compressed when large
 * and `Accept-Encoding` allows.
 */
export function responseBody(
  answer: PreparedAnswer,
  requestId: string,
  generatedAt: string,
  requestHeaders: { get(name: string): string | null },
  compressor: Compressor,
  headers: Record<string, string>,
): ResponseBody {
  const compressible = isCompressible(answer);
  if (compressible) addVary(headers, "accept-encoding");
  const coding = compressible ? chooseCoding(requestHeaders.get("accept-encoding")) : null;
  if (coding === null) {
    // The length without encoding the body: its own members are ASCII.
    const ownLength = answer.bare ? 0 : OWN_MEMBERS_FRAME_LENGTH + requestId.length + generatedAt.length;
    headers["content-length"] = String(answer.fixedBytes + ownLength);
    return renderAnswer(answer, requestId, generatedAt);
  }
  headers["content-encoding"] = coding;
  const body = renderEncodedAnswer(answer, requestId, generatedAt, coding, compressor);
  headers["content-length"] = String(body.length);
  return body;
}

/**
 * Whether the answer is large enough to be compressed (the coding still depends on Accept-Encoding); then
 * `vary` names `accept-encoding`, on a 304 too.
 */
function isCompressible(answer: PreparedAnswer): boolean {
  return answer.fixedBytes >= COMPRESSION_MIN_BYTES;
}

/** Names a request header in `vary`, after those named already. */
function addVary(headers: Record<string, string>, name: string): void {
  headers.vary = headers.vary ? `${headers.vary}, ${name}` : name;
}

/** The body in a coding: `data` is compressed once, kept under its ETag; only the tail is framed (compression.ts). */
function renderEncodedAnswer(
  answer: PreparedAnswer,
  requestId: string,
  generatedAt: string,
  coding: ContentCoding,
  compressor: Compressor,
): Buffer<ArrayBuffer> {
  if (answer.bare) return compressor.encode(`bare ${answer.data.etag}`, () => answer.data.bytes(), NO_BYTES, coding);
  const tail = Buffer.from(ownMembers(requestId, generatedAt) + answer.metaRest);
  return compressor.encode(
    `envelope ${answer.data.etag}`,
    () => Buffer.concat([ENVELOPE_HEAD, answer.data.bytes()]),
    tail,
    coding,
  );
}

/** RFC 9110 weak comparison against an `If-None-Match` list. */
function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (header === null) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}
