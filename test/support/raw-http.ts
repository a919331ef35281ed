import { request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";

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
