import type { IncomingMessage, ServerResponse } from "node:http";
import type { HeaderReader, IncomingRequest } from "./incoming.ts";
import type { HttpAnswer } from "./request-answer.ts";
import { bodyByteLength, SplicedBody } from "./spliced-body.ts";

/**
 * Node's own request and response as the edge (recognised-urls.ts) uses them, without srvx's Request and Response
 * objects in between: a request is read through the same small interface the pipeline reads srvx's through, and an
 * answer is written with one writeHead and one end, as a bare node:http server writes it.
 */
export function incomingRequestOf(req: IncomingMessage): IncomingRequest {
  return {
    method: req.method ?? "GET",
    headers: new NodeHeaderReader(req),
    ip: req.socket.remoteAddress,
    runtime: { node: { req } },
  };
}

/**
 * Headers Node keeps only the first of when a request repeats them (its `message.headers` documentation); a
 * `Headers` object, as h3 reads them, joins every value instead, so these are read from the raw list when repeated.
 */
const FIRST_KEPT_BY_NODE = new Set([
  "age",
  "authorization",
  "content-length",
  "content-type",
  "etag",
  "expires",
  "from",
  "host",
  "if-modified-since",
  "if-unmodified-since",
  "last-modified",
  "location",
  "max-forwards",
  "proxy-authorization",
  "referer",
  "retry-after",
  "server",
  "user-agent",
]);

/** A request's headers read as a `Headers` object reads them; names are asked in lower case, as the pipeline does. */
class NodeHeaderReader implements HeaderReader {
  readonly #req: IncomingMessage;
  constructor(req: IncomingMessage) {
    this.#req = req;
  }

  get(name: string): string | null {
    const value = this.#req.headers[name];
    if (value === undefined) return null;
    if (Array.isArray(value)) return value.join(", ");
    return FIRST_KEPT_BY_NODE.has(name) ? (everyValue(this.#req.rawHeaders, name) ?? value) : value;
  }

  has(name: string): boolean {
    return this.#req.headers[name] !== undefined;
  }
}

/** All values of a header the request repeats, joined; undefined when it is sent once. */
function everyValue(rawHeaders: string[], name: string): string | undefined {
  const values: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.length === name.length && rawHeaders[i]!.toLowerCase() === name) values.push(rawHeaders[i + 1]!);
  }
  return values.length > 1 ? values.join(", ") : undefined;
}

/**
 * Writes the answer; should Node refuse it (a header it cannot send), writes `onFailure`'s answer instead while the
 * head is not yet sent, and otherwise ends the connection: a failure never escapes into Node's request listener,
 * where it would end the process.
 */
export function writeNodeAnswerOrFailure(
  res: ServerResponse,
  answer: HttpAnswer,
  onFailure: (error: unknown) => HttpAnswer,
): void {
  try {
    writeNodeAnswer(res, answer);
  } catch (error) {
    if (res.headersSent) return void res.destroy();
    try {
      writeNodeAnswer(res, onFailure(error));
    } catch {
      res.destroy();
    }
  }
}

/**
 * Writes the answer. The pipeline's answers name their length (responseBody, answerError); any other answer's is
 * computed here, since writeHead fixes the head before Node could add it. Node drops the body of a HEAD answer. The
 * status line has no reason phrase, as srvx writes it for the same URL's answers through h3.
 */
function writeNodeAnswer(res: ServerResponse, answer: HttpAnswer): void {
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
