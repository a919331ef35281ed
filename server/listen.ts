import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { ServerRequest } from "srvx";
import { serve } from "srvx/node";
import type { createApp } from "./app.ts";
import { type ClientLimits, DEFAULT_CLIENT_LIMITS } from "./config.ts";
import { refuseClientErrors } from "./http/client-errors.ts";
import { toResponse } from "./http/h3-handler.ts";
import { createNodeListener } from "./http/node-listener.ts";
import type { ServiceMetrics } from "./observability/metrics.ts";
import { drainOnSignals } from "./shutdown.ts";

export interface ListenOptions {
  port: number;
  hostname: string;
  /** How to drain on SIGTERM or SIGINT (shutdown.ts); absent (tests), the caller closes the server. */
  shutdown?: Parameters<typeof drainOnSignals>[1];
  clientLimits?: ClientLimits;
  metrics?: Pick<ServiceMetrics, "recordDroppedConnection">;
}

/** Node checks time-outs every 30 s by default, giving a slow client up to that much past its limit. */
const MAX_TIMEOUT_CHECKING_INTERVAL_MS = 1000;

/**
 * Serves the app with srvx (why not listhen: docs/performance.md). Node's request listener answers URLs whose answer
 * the pipeline keeps (node-listener.ts); the rest go through srvx to h3. Requests Node cannot parse, or whose headers
 * or body come too late, get the contract's error body rather than Node's bare 400 (client-errors.ts).
 */
export async function startServer(app: ReturnType<typeof createApp>, options: ListenOptions) {
  const { pipeline } = app;
  const limits = options.clientLimits ?? DEFAULT_CLIENT_LIMITS;
  const server = serve({
    fetch: answeringRequests(app),
    port: options.port,
    hostname: options.hostname,
    silent: true,
    gracefulShutdown: false,
    node: {
      // A repeated header reads as a `Headers` object reads it (all values, joined), on either path.
      joinDuplicateHeaders: true,
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
 * srvx's handler: h3. h3 rebuilds the URL from the Host header when the path holds encoded dot segments, before any
 * handler runs: a Host no URL can hold (`localhost:99999`) throws there, and srvx would send a bare 500. Such a request
 * is malformed and gets the answer Node's refusals get.
 */
function answeringRequests({ h3, pipeline }: ReturnType<typeof createApp>) {
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
