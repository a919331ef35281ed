import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import type { H3 } from "h3";
import { once } from "node:events";
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { transportHooksOf, type RefusedRequestAnswer, type TransportHooks } from "./app.ts";
import { serve } from "srvx/node";
import type { ServerRequest } from "srvx";
import { ERROR_TABLE } from "../schemas/errors.ts";
import { writeNodeAnswerOrFailure } from "./http/node-exchange.ts";
import type { ServiceMetrics } from "./observability/metrics.ts";
import { drainOnSignals } from "./shutdown.ts";

export interface ListenOptions {
  port: number;
  hostname: string;
  /**
   * How to stop on SIGTERM or SIGINT (shutdown.ts): drain for `graceMs`, saying so through `log`. Absent (tests),
   * the caller closes the server itself.
   */
  shutdown?: { graceMs: number; log: (line: string) => void; beforeExit?: () => Promise<void> };
}

/**
 * Serves the app with h3's own server (srvx; measured faster than listhen here, see bench/http-throughput.ts).
 * A request for a URL h3 routed before is answered at the edge, straight on Node's request and response
 * (recognised-urls.ts); every other goes through srvx to h3.
 * A request Node itself cannot parse (say, raw non-ASCII bytes in the request line) never reaches h3; it still gets
 * the contract's error body instead of Node's bare 400.
 */
export async function startServer(app: H3, options: ListenOptions) {
  const hooks = transportHooksOf(app);
  const answer = hooks?.answerRefused ?? answerWithoutCounting;
  const server = serve({
    fetch: answeringRequests(app, answer),
    port: options.port,
    hostname: options.hostname,
    silent: true,
    gracefulShutdown: false,
  });
  const nodeServer = server.node?.server;
  if (hooks && nodeServer && server.node) {
    const srvxHandler = server.node.handler;
    nodeServer.removeListener("request", srvxHandler);
    nodeServer.on("request", answeringAtTheEdge(hooks, srvxHandler));
  }
  if (options.shutdown) drainOnSignals(server, options.shutdown);
  nodeServer?.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === "ECONNRESET") return socket.destroy();
    writeRefusal(socket, answer(socket.remoteAddress));
  });
  // No route is a proxy: CONNECT gets the contract's error, not a closed connection.
  nodeServer?.on("connect", (_request: IncomingMessage, socket: Socket) =>
    writeRefusal(socket, answer(socket.remoteAddress)),
  );
  await server.ready();
  return server;
}

type NodeRequestHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** Node's request listener: the edge's answer when it has one, else srvx's handler (and h3). */
function answeringAtTheEdge(hooks: TransportHooks, srvxHandler: NodeRequestHandler): NodeRequestHandler {
  return (req, res) => {
    let answer: ReturnType<TransportHooks["answerRecognised"]>;
    try {
      answer = hooks.answerRecognised(req);
    } catch {
      // Only a fault in answering a failure itself (its log line or count) gets here; never end the process for it.
      return void res.destroy();
    }
    if (answer === undefined) return srvxHandler(req, res);
    if (!(answer instanceof Promise)) return writeNodeAnswerOrFailure(res, answer, hooks.answerUnexpected);
    // The edge turns the pipeline's failures into answers (answerUnexpectedFailure); only a broken connection is left.
    answer.then((ready) => writeNodeAnswerOrFailure(res, ready, hooks.answerUnexpected)).catch(() => res.destroy());
  };
}

/**
 * srvx's handler for what the edge does not answer: h3.
 *
 * h3 builds the request's URL before any handler or its onError runs, and rebuilds it from the Host header when the
 * path holds encoded dot segments: a Host no URL can hold (`localhost:99999`) then throws there, and srvx would send a
 * bare 500 with none of the contract's headers. Such a request is malformed: it gets the same answer as one Node refuses.
 */
function answeringRequests(app: H3, answer: RefusedRequestAnswer) {
  return (request: ServerRequest) => {
    try {
      return app.fetch(request);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ERR_INVALID_URL") throw error;
      const refusal = answer(request.ip);
      return new Response(refusal.body, { status: refusal.status, headers: refusal.headers });
    }
  };
}

/** For an app not built by createApp (tests of the transport alone): the error body with no rate-limit count. */
function answerWithoutCounting(): ReturnType<RefusedRequestAnswer> {
  const requestId = randomUUID();
  const body = JSON.stringify({ error: { code: "BAD_REQUEST", message: ERROR_TABLE.BAD_REQUEST.message, requestId } });
  return {
    status: 400,
    headers: {
      "x-request-id": requestId,
      vary: "origin",
      "cache-control": "no-store",
      "content-type": "application/json; charset=utf-8",
    },
    body,
  };
}

function writeRefusal(socket: Socket, answer: ReturnType<RefusedRequestAnswer>): void {
  const headers = Object.entries({
    ...answer.headers,
    "content-length": String(Buffer.byteLength(answer.body)),
    connection: "close",
  });
  socket.end(
    [
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ""}`,
      ...headers.map(([name, value]) => `${name}: ${value}`),
      "",
      answer.body,
    ].join("\r\n"),
  );
}

/**
 * The metrics on a listener of their own (SERVICE_METRICS_PORT): `GET /metrics` with no key, for a Prometheus that
 * reaches this address and no other route. Plain node:http: it serves one text and shares nothing with the API's pipeline.
 */
export async function startMetricsServer(metrics: ServiceMetrics, options: { port: number; hostname: string }) {
  const server = createServer((request, response) => void answerMetricsRequest(metrics, request, response));
  server.listen(options.port, options.hostname);
  await once(server, "listening");
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(":") ? `[${address}]` : address}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function answerMetricsRequest(
  metrics: ServiceMetrics,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const plain = (status: number, text: string, headers: Record<string, string> = {}): void => {
    response
      .writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers })
      .end(request.method === "HEAD" ? undefined : text);
  };
  if ((request.url ?? "").split("?")[0] !== "/metrics") return plain(404, "Not found: metrics are at /metrics\n");
  if (request.method !== "GET" && request.method !== "HEAD")
    return plain(405, "Method not allowed\n", { allow: "GET, HEAD" });
  try {
    const text = await metrics.scrape();
    response
      .writeHead(200, { "content-type": metrics.registry.contentType, "cache-control": "no-store" })
      .end(request.method === "HEAD" ? undefined : text);
  } catch {
    plain(500, "The metrics could not be collected\n");
  }
}
