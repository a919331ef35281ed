import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { ServerRequest } from "srvx";
import { serve } from "srvx/node";
import type { ServiceApp } from "./app.ts";
import { type ClientLimits, DEFAULT_CLIENT_LIMITS } from "./config.ts";
import { refuseClientErrors } from "./http/client-errors.ts";
import { toResponse } from "./http/h3-handler.ts";
import { createNodeListener } from "./http/node-listener.ts";
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
  /** DEFAULT_CLIENT_LIMITS when absent. */
  clientLimits?: ClientLimits;
  /** Where a connection dropped at the limit is counted (the app's metrics). */
  metrics?: Pick<ServiceMetrics, "recordDroppedConnection">;
}

/** Node checks its time-outs every 30 s by default: a slow client would get up to that much more than its limit. */
const MAX_TIMEOUT_CHECKING_INTERVAL_MS = 1000;

/**
 * Serves the app with h3's own server (srvx; why not listhen: docs/performance.md). Node's
 * request listener answers a URL whose answer the pipeline holds itself (node-listener.ts); every other request goes
 * through srvx to h3. A request Node itself cannot parse (say, raw non-ASCII bytes in the request line) never reaches
 * either; it still gets the contract's error body instead of Node's bare 400, and so does one whose headers or body
 * do not arrive in time (`clientLimits`; client-errors.ts). Connections beyond the limit are closed as they are
 * accepted.
 */
export async function startServer(app: ServiceApp, options: ListenOptions) {
  const { pipeline } = app;
  const limits = options.clientLimits ?? DEFAULT_CLIENT_LIMITS;
  const server = serve({
    fetch: answeringRequests(app),
    port: options.port,
    hostname: options.hostname,
    silent: true,
    gracefulShutdown: false,
    node: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(MAX_TIMEOUT_CHECKING_INTERVAL_MS, Math.ceil(limits.headersTimeoutMs / 4)),
    },
  });
  const nodeServer = server.node?.server;
  if (nodeServer && server.node) {
    nodeServer.maxConnections = limits.maxConnections;
    const { metrics } = options;
    if (metrics) nodeServer.on("drop", () => metrics.recordDroppedConnection());
    // srvx makes a plain http.Server when it is given no certificate, as here.
    const answering = refuseClientErrors(nodeServer as Server, pipeline);
    const listener = createNodeListener(pipeline, server.node.handler);
    nodeServer.removeListener("request", server.node.handler);
    nodeServer.on("request", (req: IncomingMessage, res: ServerResponse) => {
      answering(res);
      listener(req, res);
    });
  }
  if (options.shutdown) drainOnSignals(server, options.shutdown);
  await server.ready();
  return server;
}

/**
 * srvx's handler: h3.
 *
 * h3 builds the request's URL before any handler or its onError runs, and rebuilds it from the Host header when the
 * path holds encoded dot segments: a Host no URL can hold (`localhost:99999`) then throws there, and srvx would send a
 * bare 500 with none of the contract's headers. Such a request is malformed: it gets the same answer as one Node refuses.
 */
function answeringRequests({ h3, pipeline }: ServiceApp) {
  return (request: ServerRequest) => {
    try {
      return h3.fetch(request);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ERR_INVALID_URL") throw error;
      return toResponse(
        pipeline.answerUnreadable({ headers: request.headers, peerAddress: request.ip }, "BAD_REQUEST"),
      );
    }
  };
}
