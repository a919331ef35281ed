import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApiRequest, HeaderReader } from "./api-request.ts";
import type { HttpAnswer } from "./envelope.ts";
import type { Pipeline } from "./pipeline.ts";
import { bodyByteLength, SplicedBody } from "./spliced-body.ts";

export type NodeRequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * URLs WHATWG parsing leaves as sent (no percent-encoded path, dot or empty segment, or rewritten query character), so
 * the raw request line is the URL: the fast path's cache key is the URL h3 would read.
 */
const VERBATIM_URL = /^\/[A-Za-z0-9\-._~/]*(\?[A-Za-z0-9\-._~!$&()*+,;=:@/?%]+)?$/;
const DOT_OR_EMPTY_SEGMENT = /\/\.{0,2}(\/|$)/;
const SLASH = 0x2f;
const ABSOLUTE_FORM = /^https?:\/\//i;

/**
 * A GET or HEAD for a URL whose answer the pipeline holds goes to the pipeline straight from Node's request, without
 * srvx's or h3's objects (docs/performance.md); any other goes to `fallback` (srvx and h3), but for a request target
 * srvx would refuse itself. The pipeline does all per-request work either way. Its server must join repeated request
 * headers (`joinDuplicateHeaders`, as listen.ts starts it).
 */
export function createNodeListener(pipeline: Pipeline, fallback: NodeRequestListener): NodeRequestListener {
  return (req, res) => {
    const url = req.url ?? "";
    const direct = (req.method === "GET" || req.method === "HEAD") && isVerbatimUrl(url) && pipeline.holds(url);
    if (!direct) return isReadableTarget(url) ? fallback(req, res) : answerUnreadableTarget(pipeline, req, res);
    let answer: HttpAnswer | Promise<HttpAnswer>;
    try {
      answer = answerOrFailure(pipeline, apiRequestOf(req, url));
    } catch {
      // Only a fault in answering a failure itself gets here: never end the process for it.
      return void res.destroy();
    }
    if (!(answer instanceof Promise)) return writeAnswerOrFailure(res, answer, pipeline);
    answer
      .catch((error: unknown) => pipeline.answerFailure(error))
      .then((ready) => writeAnswerOrFailure(res, ready, pipeline))
      .catch(() => res.destroy());
  };
}

function answerOrFailure(pipeline: Pipeline, request: ApiRequest): HttpAnswer | Promise<HttpAnswer> {
  try {
    return pipeline.answer(request);
  } catch (error) {
    return pipeline.answerFailure(error);
  }
}

/** Whether srvx hands this target on to h3 (origin-form, absolute-form, `*`); it answers any other a bare 400. */
function isReadableTarget(url: string): boolean {
  return url.charCodeAt(0) === SLASH || url === "*" || (ABSOLUTE_FORM.test(url) && URL.canParse(url));
}

/** The contract's BAD_REQUEST, as for a request Node's parser refuses. */
function answerUnreadableTarget(pipeline: Pipeline, req: IncomingMessage, res: ServerResponse): void {
  let answer: HttpAnswer;
  try {
    answer = pipeline.answerUnreadable(
      { headers: new NodeHeaderReader(req), peerAddress: req.socket.remoteAddress },
      "BAD_REQUEST",
    );
  } catch {
    return void res.destroy();
  }
  writeAnswerOrFailure(res, answer, pipeline);
}

/** Whether h3 would read this request target exactly as sent. */
export function isVerbatimUrl(url: string): boolean {
  const queryAt = url.indexOf("?");
  return VERBATIM_URL.test(url) && !DOT_OR_EMPTY_SEGMENT.test(queryAt === -1 ? url : url.slice(0, queryAt));
}

function apiRequestOf(req: IncomingMessage, url: string): ApiRequest {
  const queryAt = url.indexOf("?");
  return {
    method: req.method ?? "GET",
    pathname: queryAt === -1 ? url : url.slice(0, queryAt),
    search: queryAt === -1 ? "" : url.slice(queryAt),
    headers: new NodeHeaderReader(req),
    peerAddress: req.socket.remoteAddress,
  };
}

/**
 * Every header the pipeline reads, as a `Headers` object would (not `cookie`: Node joins it with "; "): the server joins
 * repeated headers (`joinDuplicateHeaders`, listen.ts). Off `req.headers`, which Node builds anyway. Names in lower case.
 */
class NodeHeaderReader implements HeaderReader {
  readonly #req: IncomingMessage;
  constructor(req: IncomingMessage) {
    this.#req = req;
  }

  get(name: string): string | null {
    const value = this.#req.headers[name];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(", ") : value;
  }

  has(name: string): boolean {
    return this.#req.headers[name] !== undefined;
  }
}

/**
 * Writes the answer; should Node refuse it (a header it cannot send), the INTERNAL answer while the head is unsent,
 * else ends the connection: a failure escaping into Node's request listener would end the process.
 */
export function writeAnswerOrFailure(
  res: ServerResponse,
  answer: HttpAnswer,
  pipeline: Pick<Pipeline, "answerFailure">,
): void {
  try {
    writeAnswer(res, answer);
  } catch (error) {
    if (res.headersSent) return void res.destroy();
    try {
      writeAnswer(res, pipeline.answerFailure(error));
    } catch {
      res.destroy();
    }
  }
}

/**
 * One writeHead and one end, as a bare node:http server does; a length the answer does not state is computed, since
 * writeHead fixes the head before Node could add it. No reason phrase, as srvx writes it.
 */
function writeAnswer(res: ServerResponse, answer: HttpAnswer): void {
  const { headers, body } = answer;
  if (body !== null && headers["content-length"] === undefined)
    headers["content-length"] = String(bodyByteLength(body));
  res.writeHead(answer.status, "", headers);
  if (!(body instanceof SplicedBody)) return void res.end(body ?? undefined);
  // Corked, the head and the parts leave in one write, as a whole body would.
  const [head, section, tail] = body.parts;
  res.cork();
  res.write(head);
  res.write(section);
  res.end(tail);
  res.uncork();
}
