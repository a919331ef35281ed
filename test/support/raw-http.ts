import { request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { connect } from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * One exchange over node:http, so the bytes on the wire are seen before any client decodes or normalises them. A URL
 * given as options (`host`, `port`, `path`) is sent with its path exactly as written.
 */
export function rawRequest(
  url: string | RequestOptions,
  headers: Record<string, string>,
  method = "GET",
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const options = { method, headers };
    const request =
      typeof url === "string" ? httpRequest(url, options, answered) : httpRequest({ ...url, ...options }, answered);
    function answered(response: IncomingMessage) {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    }
    request.on("error", reject);
    request.end();
  });
}

/**
 * Bytes written to the server as they are, for what no client would send, and its whole answer, read until the
 * connection ends (the request asks `Connection: close`, or the server refuses it): the head in lower case.
 */
export function rawExchange(url: string, bytes: Buffer | string): Promise<{ head: string; body: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => socket.write(bytes));
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    socket.on("end", () => {
      const [head = "", body = ""] = received.split("\r\n\r\n");
      resolve({ head: head.toLowerCase(), body });
    });
    socket.on("error", reject);
  });
}
