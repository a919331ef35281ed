import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";

/**
 * A real HTTP server standing in for api.met.no: MET's path, recorded payloads and recorded response headers, with
 * the dates moved onto the test's clock. Point the service's weather base URL at `url`.
 */

export type MetStandinMode =
  | "normal"
  /** 500, 429 and 403 with MET-like non-JSON bodies. */
  | "server-error"
  | "rate-limited"
  /** 429 with `Retry-After: 120`, as a throttling provider asks an application to back off. */
  | "throttled"
  | "forbidden"
  /** Accepts the request and never answers. */
  | "hang"
  /** A 4 MiB JSON body, announced in Content-Length. */
  | "oversized"
  /** The same body streamed without Content-Length, so only counting while reading can catch it. */
  | "oversized-unannounced"
  /** 200 with the fixture cut in half. */
  | "invalid-json";

export interface MetStandinOptions {
  /** The test's clock; Date, Expires and Last-Modified are written from it. */
  now: () => number;
  /** A file in test/fixtures/met; default the London complete response. */
  fixture?: string;
  /** Expires minus Date. Default as recorded (31 min 52 s); null sends no Expires header. */
  expiresAfterMs?: number | null;
}

export interface ReceivedRequest {
  /** The test clock's time when the request arrived. */
  at: number;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
}

export interface MetStandin {
  url: string;
  readonly requests: number;
  /** Most requests ever open at once. */
  readonly maxConcurrent: number;
  readonly received: readonly ReceivedRequest[];
  setMode(mode: MetStandinMode): void;
  /** A new model run: Last-Modified becomes now, so the next conditional request gets 200 (with `fixture` if given). */
  publish(fixture?: string): void;
  close(): Promise<void>;
}

const FIXTURES = new URL("../fixtures/met/", import.meta.url);
const RECORDED_HEADERS = "complete-london-2020-07-20.headers.txt";
const DEFAULT_FIXTURE = "complete-london-2020-07-20.json";
const REAL_PATH = "/weatherapi/locationforecast/2.0/complete";
const OVERSIZED_BYTES = 4 * 1024 * 1024;
/** What the stand-in's 429 asks for, as a throttling provider would. */
export const RATE_LIMITED_RETRY_AFTER_SECONDS = 120;
/** Set per response below, or by node itself. */
const HEADERS_NOT_REPLAYED = new Set(["date", "expires", "last-modified", "content-length", "content-encoding", "connection"]);

export async function startMetStandin(options: MetStandinOptions): Promise<MetStandin> {
  const recorded = readRecordedHeaders();
  const expiresAfterMs =
    options.expiresAfterMs === undefined ? Date.parse(recorded.get("expires")!) - Date.parse(recorded.get("date")!) : options.expiresAfterMs;
  const replayed = [...recorded].filter(([name]) => !HEADERS_NOT_REPLAYED.has(name));

  let mode: MetStandinMode = "normal";
  let payload = loadPayload(options.fixture ?? DEFAULT_FIXTURE);
  // HTTP dates have whole seconds, and If-Modified-Since is compared with this.
  let lastModifiedAt = wholeSeconds(options.now());
  let open = 0;
  let maxConcurrent = 0;
  const received: ReceivedRequest[] = [];

  function answer(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? "/", "http://standin");
    received.push({ at: options.now(), path: url.pathname, query: url.searchParams, headers: request.headers });
    open += 1;
    maxConcurrent = Math.max(maxConcurrent, open);
    response.on("close", () => (open -= 1));
    response.on("error", () => undefined); // clients that give up mid-body are expected here

    const refusal = refuseLikeMet(url, request.headers);
    if (refusal) return sendText(response, refusal.status, refusal.text);
    switch (mode) {
      case "hang":
        return;
      case "server-error":
        return sendText(response, 500, "<html><body><h1>500 Internal Server Error</h1></body></html>");
      case "rate-limited":
        return sendText(response, 429, "<html><body><h1>429 Too Many Requests</h1></body></html>");
      case "throttled":
        response.setHeader("retry-after", String(RATE_LIMITED_RETRY_AFTER_SECONDS));
        return sendText(response, 429, "<html><body><h1>429 Too Many Requests</h1></body></html>");
      case "forbidden":
        return sendText(response, 403, "<html><body><h1>403 Forbidden</h1></body></html>");
      case "oversized":
        return sendOversized(response, true);
      case "oversized-unannounced":
        return sendOversized(response, false);
      case "invalid-json":
        response.writeHead(200, providerHeaders());
        return void response.end(payload.json.subarray(0, payload.json.length >> 1));
      case "normal":
        return sendForecast(request, response);
    }
  }

  function providerHeaders(): Record<string, string> {
    const now = options.now();
    const headers: Record<string, string> = Object.fromEntries(replayed);
    headers.date = new Date(now).toUTCString();
    headers["last-modified"] = new Date(lastModifiedAt).toUTCString();
    if (expiresAfterMs !== null) headers.expires = new Date(now + expiresAfterMs).toUTCString();
    return headers;
  }

  function sendForecast(request: IncomingMessage, response: ServerResponse): void {
    const since = Date.parse(String(request.headers["if-modified-since"]));
    if (since >= lastModifiedAt) return void response.writeHead(304, providerHeaders()).end();
    const gzip = /\bgzip\b/.test(String(request.headers["accept-encoding"] ?? ""));
    const body = gzip ? payload.gzip : payload.json;
    const headers = { ...providerHeaders(), "content-length": String(body.length) };
    response.writeHead(200, gzip ? { ...headers, "content-encoding": "gzip" } : headers).end(body);
  }

  function sendOversized(response: ServerResponse, announced: boolean): void {
    const body = Buffer.from(JSON.stringify({ padding: "x".repeat(OVERSIZED_BYTES) }));
    const headers = { ...providerHeaders(), "content-type": "application/json" };
    if (!announced) {
      response.writeHead(200, headers);
      for (let offset = 0; offset < body.length && !response.destroyed; offset += 64 * 1024) response.write(body.subarray(offset, offset + 64 * 1024));
      return void response.end();
    }
    response.writeHead(200, { ...headers, "content-length": String(body.length) }).end(body);
  }

  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return received.length;
    },
    get maxConcurrent() {
      return maxConcurrent;
    },
    received,
    setMode(next) {
      mode = next;
    },
    publish(fixture) {
      if (fixture !== undefined) payload = loadPayload(fixture);
      lastModifiedAt = wholeSeconds(options.now());
    },
    close() {
      server.closeAllConnections(); // hung requests would otherwise keep close() waiting
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** What MET itself refuses regardless of mode (documented in its terms and status codes). */
function refuseLikeMet(url: URL, headers: IncomingHttpHeaders): { status: number; text: string } | null {
  if (url.pathname !== REAL_PATH) return { status: 404, text: "<html><body>Not found</body></html>" };
  if (!headers["user-agent"]?.trim()) return { status: 403, text: "<html><body>Missing User-Agent</body></html>" };
  const lat = url.searchParams.get("lat");
  const lon = url.searchParams.get("lon");
  if (lat === null || lon === null) return { status: 400, text: "<html><body>lat and lon are required</body></html>" };
  if (![lat, lon].every((value) => /^-?\d+(\.\d{1,4})?$/.test(value))) return { status: 403, text: "<html><body>Max 4 decimals</body></html>" };
  return null;
}

function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { "content-type": "text/html" }).end(text);
}

function readRecordedHeaders(): Map<string, string> {
  const lines = readFileSync(new URL(RECORDED_HEADERS, FIXTURES), "utf8").split("\n");
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (line.startsWith("#") || line.startsWith("HTTP/") || colon < 0) continue;
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function loadPayload(fixture: string): { json: Buffer; gzip: Buffer } {
  const json = readFileSync(new URL(fixture, FIXTURES));
  return { json, gzip: gzipSync(json) };
}

function wholeSeconds(time: number): number {
  return Math.floor(time / 1000) * 1000;
}
