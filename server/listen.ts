import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import type { H3 } from "h3";
import { serve } from "h3/node";
import { ERROR_TABLE } from "../schemas/errors.ts";

export interface ListenOptions {
  port: number;
  hostname: string;
  /** Off in tests: they close the server themselves. */
  gracefulShutdown?: boolean;
}

/**
 * Serves the app with h3's own server (srvx; measured faster than listhen here, see bench/http-throughput.ts).
 * A request Node itself cannot parse (say, raw non-ASCII bytes in the request line) never reaches h3; it still gets
 * the contract's error body instead of Node's bare 400.
 */
export async function startServer(app: H3, options: ListenOptions) {
  const server = serve(app, { port: options.port, hostname: options.hostname, silent: true, gracefulShutdown: options.gracefulShutdown ?? true });
  server.node?.server?.on("clientError", answerUnparsableRequest);
  await server.ready();
  return server;
}

function answerUnparsableRequest(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || error.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  const requestId = randomUUID();
  const body = JSON.stringify({ error: { code: "BAD_REQUEST", message: ERROR_TABLE.BAD_REQUEST.message, requestId } });
  socket.end([
    "HTTP/1.1 400 Bad Request",
    "content-type: application/json; charset=utf-8",
    `content-length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    "vary: origin",
    "cache-control: no-store",
    "connection: close",
    "",
    body,
  ].join("\r\n"));
}
