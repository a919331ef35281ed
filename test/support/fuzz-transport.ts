import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { errors, Pool } from "undici";
import type { ReceivedAnswer } from "./answer-invariants.ts";
import type { HostileRequest } from "./hostile-requests.ts";

/**
 * Sends hostile requests over real HTTP with bounded concurrency. undici writes the path exactly as given (fetch
 * would normalise `..`, `%2e` and friends before the server ever saw them), and a Pool keeps one connection per slot.
 */

export interface FuzzTransport {
  /** Answers in the order of `requests`; an Error where the server gave no answer at all. */
  sendAll(requests: HostileRequest[]): Promise<(ReceivedAnswer | Error)[]>;
  /** Requests that reached the wire (client-side refusals by undici are not counted). */
  readonly sent: number;
  /** Requests undici refused to send (the generator produced something no HTTP client can put on the wire). */
  readonly refusedByClient: number;
  /** The first few of those refusals, to fix the generator by. */
  readonly refusalSamples: readonly string[];
  close(): Promise<void>;
}

export function fuzzTransport(origin: string, concurrency: number): FuzzTransport {
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
  let sent = 0;
  let refusedByClient = 0;
  const refusalSamples: string[] = [];

  async function sendOne(request: HostileRequest): Promise<ReceivedAnswer | Error> {
    try {
      const response = await pool.request({
        method: request.method,
        path: request.path,
        headers: request.headers,
        body: request.body,
        // A hang is a finding, not a stall: the deadline also covers time spent queued in the pool.
        headersTimeout: 5_000,
        bodyTimeout: 5_000,
        signal: AbortSignal.timeout(20_000),
      });
      sent += 1;
      // A compressed answer is checked as the client that asked for it reads it: decoded by Node's zlib (a HEAD has no body).
      const bytes = Buffer.from(await response.body.arrayBuffer());
      const coding = response.headers["content-encoding"];
      const text = (
        bytes.length === 0
          ? bytes
          : coding === "br"
            ? brotliDecompressSync(bytes)
            : coding === "gzip"
              ? gunzipSync(bytes)
              : bytes
      ).toString("utf8");
      return { status: response.statusCode, headers: response.headers, text };
    } catch (error) {
      if (error instanceof errors.InvalidArgumentError) {
        refusedByClient += 1;
        if (refusalSamples.length < 5)
          refusalSamples.push(
            `${error.message}: ${request.method} ${request.path.slice(0, 120)} ${JSON.stringify(request.headers).slice(0, 200)}`,
          );
        return error;
      }
      sent += 1;
      return error as Error;
    }
  }

  return {
    async sendAll(requests) {
      const answers: (ReceivedAnswer | Error)[] = new Array(requests.length);
      let next = 0;
      const worker = async () => {
        while (next < requests.length) {
          const index = next++;
          answers[index] = await sendOne(requests[index]!);
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, requests.length) }, worker));
      return answers;
    },
    get sent() {
      return sent;
    },
    get refusedByClient() {
      return refusedByClient;
    },
    refusalSamples,
    close: () => pool.close(),
  };
}
