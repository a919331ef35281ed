import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { HttpAnswer } from "./envelope.ts";
import type { Pipeline } from "./pipeline.ts";

/**
 * What Node refuses before any listener sees it (unparsable bytes, time-outs, CONNECT) gets the contract's BAD_REQUEST
 * on the socket, then closes. Returns what the request listener calls with each response it starts, so that a
 * refusal is never written into an answer under way, nor after the answer to the very request refused.
 */
export function refuseClientErrors(server: Server, pipeline: Pipeline): (res: ServerResponse) => void {
  const answering = new WeakMap<Socket, ServerResponse>();
  const refuse = (socket: Socket) =>
    writeRefusal(socket, pipeline.answerUnreadable({ peerAddress: socket.remoteAddress }, "BAD_REQUEST"));
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === "ECONNRESET") return socket.destroy();
    const latest = answering.get(socket);
    // A body late after its headers, or the previous answer still being written: a refusal would be a second answer.
    if (latest && !(latest.req.complete && latest.writableFinished)) return socket.destroy();
    refuse(socket);
  });
  // No route is a proxy: CONNECT gets the contract's error, not a closed connection.
  server.on("connect", (_request: IncomingMessage, socket: Socket) => refuse(socket));
  return (res) => {
    if (res.socket) answering.set(res.socket, res);
  };
}

/** Closed once written: ending only our side leaves the socket open as long as a client wants. */
function writeRefusal(socket: Socket, answer: HttpAnswer): void {
  const body = String(answer.body ?? "");
  const headers = Object.entries({
    ...answer.headers,
    "content-length": String(Buffer.byteLength(body)),
    connection: "close",
  });
  socket.end(
    [
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ""}`,
      ...headers.map(([name, value]) => `${name}: ${value}`),
      "",
      body,
    ].join("\r\n"),
    () => socket.destroy(),
  );
}
