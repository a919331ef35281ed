import { request as httpRequest } from "node:http";

/** One answer exactly as the service sent it: raw header lines in order and the body bytes (never decoded). */
export interface CapturedAnswer {
  status: number;
  /** [name, value] in the order sent, as Node reports them in `rawHeaders`. */
  headers: Array<[string, string]>;
  body: Buffer;
}

/**
 * Uses node:http rather than fetch, which would decompress, merge repeated headers and lose the original order. No agent:
 * a pooled keep-alive socket would outlive the capture and keep the benchmark process from exiting.
 */
export function captureAnswer(
  url: string,
  headers: Record<string, string>,
  timeoutMs = 30_000,
): Promise<CapturedAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { headers, timeout: timeoutMs, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const raw = response.rawHeaders;
        const pairs: Array<[string, string]> = [];
        for (let index = 0; index < raw.length; index += 2) pairs.push([raw[index]!, raw[index + 1]!]);
        resolve({ status: response.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks) });
      });
    });
    outgoing.on("timeout", () => outgoing.destroy(new Error(`no answer from ${url} within ${timeoutMs} ms`)));
    outgoing.on("error", reject);
    outgoing.end();
  });
}
