import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import type { H3 } from "h3";
import { STATUS_CODES, type IncomingMessage } from "node:http";
import { refusedRequestAnswerOf, type RefusedRequestAnswer } from "./app.ts";
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
  const answer = refusedRequestAnswerOf(app) ?? answerWithoutCounting;
  server.node?.server?.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === "ECONNRESET") return socket.destroy();
    writeRefusal(socket, answer(socket.remoteAddress));
  });
  // No route is a proxy: CONNECT gets the contract's error, not a closed connection.
  server.node?.server?.on("connect", (_request: IncomingMessage, socket: Socket) => writeRefusal(socket, answer(socket.remoteAddress)));
  await server.ready();
  return server;
}

/** For an app not built by createApp (tests of the transport alone): the error body with no rate-limit count. */
function answerWithoutCounting(): ReturnType<RefusedRequestAnswer> {
  const requestId = randomUUID();
  const body = JSON.stringify({ error: { code: "BAD_REQUEST", message: ERROR_TABLE.BAD_REQUEST.message, requestId } });
  return { status: 400, headers: { "x-request-id": requestId, vary: "origin", "cache-control": "no-store", "content-type": "application/json; charset=utf-8" }, body };
}

function writeRefusal(socket: Socket, answer: ReturnType<RefusedRequestAnswer>): void {
  const headers = Object.entries({ ...answer.headers, "content-length": String(Buffer.byteLength(answer.body)), connection: "close" });
  socket.end([`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ""}`, ...headers.map(([name, value]) => `${name}: ${value}`), "", answer.body].join("\r\n"));
}
