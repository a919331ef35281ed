// The last step of the pipeline (pipeline.ts): one request's answer written as status, headers and body (the
// `{ data, meta }` envelope around a prepared answer), then logged and counted.
import { RETRY_AFTER_UNAVAILABLE_SECONDS } from "../../schemas/errors.ts";
import type { RouteSpec } from "../../schemas/routes/route-spec.ts";
import { isoInstant } from "../time/iso-instant.ts";
import type { ApiError } from "./api-error.ts";
import type { HeaderReader } from "./api-request.ts";
import { COMPRESSION_MIN_BYTES, type Compressor } from "./compression.ts";
import { type ContentCoding, chooseCoding, JSON_MEDIA_TYPE } from "./negotiation.ts";
import { BODY_HEAD, ownMembers, type PreparedAnswer } from "./prepared-answer.ts";
import { logAnswer, type RequestState } from "./request-state.ts";
import { bodyByteLength, type ResponseBody, SplicedBody } from "./spliced-body.ts";

/**
 * An answer as the pipeline hands it to a transport: status, headers and body (no `Headers` or `Response` object).
 * The h3 handler turns it into srvx's Response (h3-handler.ts); the Node listener writes it itself (node-listener.ts).
 */
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
  const notModified =
    spec.publicCacheSeconds !== null && matchesIfNoneMatch(requestHeaders.get("if-none-match"), answer.data.etag);
  headers["content-type"] = answer.mediaType ?? spec.mediaType ?? JSON_MEDIA_TYPE;
  if (answer.headers) Object.assign(headers, answer.headers);
  // The same URL answers JSON or CSV by its Accept header: caches must key its copies by it.
  if (spec.csv) addVary(headers, "accept");
  if (spec.publicCacheSeconds !== null) {
    headers["cache-control"] = `public, max-age=${spec.publicCacheSeconds}`;
    headers.etag = answer.data.etag;
    if (notModified) {
      // RFC 9110 section 15.4.5: a 304 names what its 200 would, so caches key its copies by coding.
      if (isCompressible(answer)) addVary(headers, "accept-encoding");
      logAnswer(state, 304);
      return new HttpAnswer(304, headers, null);
    }
  } else {
    headers["cache-control"] = "no-store";
  }
  // responseBody states the length, not Node: a HEAD (whose body Node drops) then carries the length its GET would.
  // generatedAt is when the response is built: an answer that waited on a provider is younger than its request.
  const body = responseBody(answer, state.id, isoInstant(generatedAt), requestHeaders, compressor, headers);
  logAnswer(state, answer.status);
  return new HttpAnswer(answer.status, headers, body);
}

export function answerError(state: RequestState, error: ApiError): HttpAnswer {
  const headers = errorHeaders(state, error);
  const body = serialiseError(error, state.id);
  // Stated here, as for a success (answerSuccess): Node drops a HEAD's body, and with it the length it would count.
  headers["content-length"] = String(Buffer.byteLength(body));
  logAnswer(state, error.status);
  return new HttpAnswer(error.status, headers, body);
}

function errorHeaders(state: RequestState, error: ApiError): Record<string, string> {
  const { headers } = state;
  headers["content-type"] = JSON_MEDIA_TYPE;
  headers["cache-control"] = "no-store";
  const retryAfter = error.retryAfterSeconds ?? (error.status === 503 ? RETRY_AFTER_UNAVAILABLE_SECONDS : null);
  if (retryAfter !== null) headers["retry-after"] = String(retryAfter);
  // RFC 9110 section 11.6.1: a 401 names the scheme that would succeed (the key may also come as X-API-Key).
  if (error.status === 401) headers["www-authenticate"] = 'Bearer realm="service"';
  return Object.assign(headers, error.headers);
}

const ENVELOPE_HEAD = Buffer.from(BODY_HEAD);
const NO_BYTES = Buffer.alloc(0);
const OWN_MEMBERS_FRAME_LENGTH = ownMembers("", "").length;

function ownMembersLength(requestId: string, generatedAt: string): number {
  return OWN_MEMBERS_FRAME_LENGTH + requestId.length + generatedAt.length;
}

/**
 * The body of one response: the prepared answer with this response's `requestId` and `generatedAt`; text when its
 * `data` section is kept as text, else spliced around the section's kept bytes.
 */
export function renderAnswer(answer: PreparedAnswer, requestId: string, generatedAt: string): ResponseBody {
  const { content } = answer.data;
  if (answer.bare) return content;
  const own = ownMembers(requestId, generatedAt);
  if (typeof content === "string") return BODY_HEAD + content + own + answer.metaRest;
  return new SplicedBody([ENVELOPE_HEAD, content, own + answer.metaRest], answer.fixedBytes + own.length);
}

/**
 * The body of one response, its `content-length` set in `headers`: compressed in brotli or gzip when it is over
 * COMPRESSION_MIN_BYTES and the request's `Accept-Encoding` allows (then `content-encoding` is set, and `vary` names
 * the header for every large answer).
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
    const body = renderAnswer(answer, requestId, generatedAt);
    // A text body's length without encoding it: its own members are ASCII.
    headers["content-length"] = String(
      typeof body !== "string"
        ? bodyByteLength(body)
        : answer.bare
          ? answer.fixedBytes
          : answer.fixedBytes + ownMembersLength(requestId, generatedAt),
    );
    return body;
  }
  headers["content-encoding"] = coding;
  const body = renderEncodedAnswer(answer, requestId, generatedAt, coding, compressor);
  headers["content-length"] = String(body.length);
  return body;
}

/** Whether the answer is large enough to be compressed (then its `vary` names `accept-encoding`, on a 304 too). */
function isCompressible(answer: PreparedAnswer): boolean {
  return answer.fixedBytes >= COMPRESSION_MIN_BYTES;
}

/** Names a request header in `vary`, after those named already. */
function addVary(headers: Record<string, string>, name: string): void {
  headers.vary = headers.vary ? `${headers.vary}, ${name}` : name;
}

/**
 * The body in a content coding: the answer's constant head (`data`) is compressed once and kept by the compressor
 * under the data's ETag; only this response's tail is framed per response (compression.ts).
 */
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

function serialiseError(error: ApiError, requestId: string): string {
  return JSON.stringify({ error: { code: error.code, message: error.message, requestId } });
}

/** RFC 9110 weak comparison against an `If-None-Match` list. */
function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (header === null) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}
