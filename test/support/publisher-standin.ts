import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { contentTypeOf } from "./publisher-paths.ts";
import { DEFAULT_SAMPLES_DIR, loadSamples, recordedAnswer, type StandinRequest } from "./publisher-recorded-replies.ts";

/**
 * A real HTTP server on 127.0.0.1 that stands in for all five publisher hosts of economics ingestion
 * (www.bls.gov, api.bls.gov, ec.europa.eu, www.ecb.europa.eu, data-api.ecb.europa.eu). It answers the
 * publishers' own paths (see cli/ingest/sources.ts) with the recorded documents of data/samples
 * (see publisher-recorded-replies.ts for what each path answers).
 *
 * Every request is recorded. Per path (an exact pathname, or a prefix ending in `*`) it can be switched to
 * fail with a status, to hang (never answer, for kill and time-out tests), to serve a replacement body or to hand
 * the answer to a responder of the test's own (faults at the transport level, see publisher-faults.ts); where
 * several switches match a path, the one set last wins.
 * Point the five `SERVICE_*_URL` variables (`env`) or `hosts` of a fetch-mode run at it.
 */

export type Behaviour =
  | { kind: "fail"; status: number }
  | { kind: "hang" }
  | { kind: "body"; body: Buffer; contentType: string; status: number }
  | { kind: "respond"; respond: Responder };

/** The recorded answer a path would have had (null where there is none). */
export type RecordedAnswer = { contentType: string; body: Buffer } | null;

/**
 * Writes the answer itself, from the raw response: a body cut or stalled after its headers, a connection dropped,
 * a stream with no Content-Length. Given the recorded answer, so that a fault can be made of the real document.
 */
export type Responder = (response: ServerResponse, recorded: RecordedAnswer) => void;

export interface PublisherStandin {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The five publisher-host variables, all pointing here. */
  env: Record<
    "SERVICE_BLS_URL" | "SERVICE_BLS_API_URL" | "SERVICE_EUROSTAT_URL" | "SERVICE_ECB_URL" | "SERVICE_ECB_DATA_URL",
    string
  >;
  /** The same as `UpstreamHosts` for an in-process fetch-mode run. */
  hosts: { "bls-www": string; "bls-api": string; eurostat: string; "ecb-www": string; "ecb-data": string };
  /** Every request received, in order. */
  requests: StandinRequest[];
  /** Requests whose path matches (all when no pattern). */
  count(pattern?: string): number;
  fail(pattern: string, status?: number): void;
  hang(pattern: string): void;
  replace(pattern: string, body: string | Buffer, contentType?: string): void;
  respond(pattern: string, responder: Responder): void;
  /** Back to the recorded documents, for one pattern or all. Requests already hanging stay unanswered. */
  reset(pattern?: string): void;
  /** Resolves with the first request (already received or still to come) whose path matches. */
  waitForRequest(pattern: string, timeoutMs?: number): Promise<StandinRequest>;
  close(): Promise<void>;
}

export function pathMatches(pattern: string, path: string): boolean {
  return pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : path === pattern;
}

export async function startPublisherStandin(options: { samplesDir?: string } = {}): Promise<PublisherStandin> {
  const samples = loadSamples(options.samplesDir ?? DEFAULT_SAMPLES_DIR);
  const behaviours = new Map<string, Behaviour>();
  const requests: StandinRequest[] = [];
  const waiters: { pattern: string; resolve: (request: StandinRequest) => void }[] = [];

  const behaviourFor = (path: string): Behaviour | null => {
    let found: Behaviour | null = null;
    for (const [pattern, behaviour] of behaviours) if (pathMatches(pattern, path)) found = behaviour;
    return found;
  };

  const server = createServer((request, response) => {
    void handle(request, response);
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const target = new URL(request.url ?? "/", "http://standin");
    const received: StandinRequest = {
      method: request.method ?? "GET",
      path: target.pathname,
      query: target.search,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    requests.push(received);
    for (const waiter of [...waiters]) {
      if (pathMatches(waiter.pattern, received.path)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(received);
      }
    }
    const behaviour = behaviourFor(received.path);
    if (behaviour?.kind === "hang") return;
    if (behaviour?.kind === "fail")
      return send(response, behaviour.status, "text/plain", Buffer.from(`stand-in failure ${behaviour.status}\n`));
    if (behaviour?.kind === "body") return send(response, behaviour.status, behaviour.contentType, behaviour.body);
    const answer = recordedAnswer(samples, received, target);
    if (behaviour?.kind === "respond") return behaviour.respond(response, answer);
    if (!answer) return send(response, 404, "text/plain", Buffer.from("not found\n"));
    send(response, 200, answer.contentType, answer.body);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    env: {
      SERVICE_BLS_URL: url,
      SERVICE_BLS_API_URL: url,
      SERVICE_EUROSTAT_URL: url,
      SERVICE_ECB_URL: url,
      SERVICE_ECB_DATA_URL: url,
    },
    hosts: { "bls-www": url, "bls-api": url, eurostat: url, "ecb-www": url, "ecb-data": url },
    requests,
    count: (pattern) =>
      requests.filter((request) => pattern === undefined || pathMatches(pattern, request.path)).length,
    fail: (pattern, status = 500) => void behaviours.set(pattern, { kind: "fail", status }),
    hang: (pattern) => void behaviours.set(pattern, { kind: "hang" }),
    replace: (pattern, body, contentType = contentTypeOf(pattern)) =>
      void behaviours.set(pattern, {
        kind: "body",
        body: Buffer.isBuffer(body) ? body : Buffer.from(body),
        contentType,
        status: 200,
      }),
    respond: (pattern, responder) => void behaviours.set(pattern, { kind: "respond", respond: responder }),
    reset: (pattern) => {
      if (pattern === undefined) behaviours.clear();
      else behaviours.delete(pattern);
    },
    waitForRequest: (pattern, timeoutMs = 15_000) => {
      const seen = requests.find((request) => pathMatches(pattern, request.path));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`stand-in: no request for ${pattern} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          pattern,
          resolve: (request) => {
            clearTimeout(timer);
            resolve(request);
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(response: ServerResponse, status: number, contentType: string, body: Buffer): void {
  response.writeHead(status, { "content-type": contentType, "content-length": String(body.length) });
  response.end(body);
}
