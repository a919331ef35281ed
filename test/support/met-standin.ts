import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_FIXTURE, loadPayload, readRecordedHeaders } from "./met-recorded-response.ts";

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
  /** 429 with `Retry-After: 86400`: a day, far past what the service honours (issue 39). */
  | "throttled-for-a-day"
  | "forbidden"
  /** Accepts the request and never answers. */
  | "hang"
  /** A 4 MiB JSON body, announced in Content-Length. */
  | "oversized"
  /** The same body streamed without Content-Length, so only counting while reading can catch it. */
  | "oversized-unannounced"
  /** 200 with the fixture cut in half. */
  | "invalid-json"
  /** 502 and 503 with MET-like non-JSON bodies, no Retry-After. */
  | "bad-gateway"
  | "service-unavailable"
  /** 503 with `Retry-After: 30`: MET's maintenance answer, which asks the application to back off like a 429. */
  | "service-unavailable-retry-after"
  /** 200 announcing the whole body, half of it sent, then a TCP reset. */
  | "reset-mid-body"
  /** 200 valid JSON that is not a Locationforecast document. */
  | "wrong-shape"
  /** 200 headers, then a few bytes at a time, far slower than any client's time-out. */
  | "dribble"
  /** The normal answer (304 to a conditional request) without an Expires header. */
  | "no-expires"
  /** The normal answer with Expires an hour before Date. */
  | "expires-past"
  /** A model run stamped a day ahead of Date: 200 with that Last-Modified even to a conditional request. */
  | "last-modified-future"
  /** 304 to every request, conditional or not (with the normal headers). */
  | "not-modified-always";

export interface MetStandinOptions {
  /** The test's clock; Date, Expires and Last-Modified are written from it. */
  now: () => number;
  /** A file in test/fixtures/met; default the London complete response. */
  fixture?: string;
  /** Expires minus Date. Default as recorded (31 min 52 s); null sends no Expires header. */
  expiresAfterMs?: number | null;
  /** The size of the "oversized" modes' body (default 4 MiB). */
  oversizedBytes?: number;
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

const REAL_PATH = "/weatherapi/locationforecast/2.0/complete";
const OVERSIZED_BYTES = 4 * 1024 * 1024;
/** What the stand-in's 429 asks for, as a throttling provider would. */
export const RATE_LIMITED_RETRY_AFTER_SECONDS = 120;
/** What the stand-in's "throttled-for-a-day" 429 asks for. */
export const FAR_RETRY_AFTER_SECONDS = 86_400;
/** What the stand-in's 503 with Retry-After asks for; unlike the 429's, short enough to tell the two apart. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 30;
/** How far ahead of Date the "last-modified-future" mode stamps its model run. */
export const FUTURE_LAST_MODIFIED_MS = 24 * 60 * 60 * 1000;
/** Expires minus Date in the "expires-past" mode. */
export const PAST_EXPIRES_MS = -60 * 60 * 1000;
/** The "dribble" mode sends this many bytes per tick... */
const DRIBBLE_BYTES = 8;
/** ...every this many ms: about 80 bytes a second, so a forecast of tens of KB takes many minutes. */
const DRIBBLE_INTERVAL_MS = 100;
/** A GeoJSON feature MET could plausibly serve, but with no forecast in it. */
const WRONG_SHAPE_BODY = JSON.stringify({
  type: "Feature",
  geometry: { type: "Point", coordinates: [10.75, 59.91] },
  properties: { note: "no timeseries" },
});
/** Set per response below, or by node itself. */
const HEADERS_NOT_REPLAYED = new Set([
  "date",
  "expires",
  "last-modified",
  "content-length",
  "content-encoding",
  "connection",
]);

export async function startMetStandin(options: MetStandinOptions): Promise<MetStandin> {
  const recorded = readRecordedHeaders();
  const expiresAfterMs =
    options.expiresAfterMs === undefined
      ? Date.parse(recorded.get("expires")!) - Date.parse(recorded.get("date")!)
      : options.expiresAfterMs;
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
      case "throttled-for-a-day":
        response.setHeader("retry-after", String(FAR_RETRY_AFTER_SECONDS));
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
      case "bad-gateway":
        return sendText(response, 502, "<html><body><h1>502 Bad Gateway</h1></body></html>");
      case "service-unavailable":
        return sendText(response, 503, "<html><body><h1>503 Service Unavailable</h1></body></html>");
      case "service-unavailable-retry-after":
        response.setHeader("retry-after", String(UNAVAILABLE_RETRY_AFTER_SECONDS));
        return sendText(response, 503, "<html><body><h1>503 Service Unavailable</h1></body></html>");
      case "reset-mid-body":
        return resetMidBody(response);
      case "wrong-shape":
        response.writeHead(200, { ...providerHeaders(), "content-type": "application/json" });
        return void response.end(WRONG_SHAPE_BODY);
      case "dribble":
        return dribble(response);
      case "no-expires":
        return sendForecastAs(request, response, lastModifiedAt, (headers) => delete headers.expires);
      case "expires-past":
        return sendForecastAs(
          request,
          response,
          lastModifiedAt,
          (headers) => (headers.expires = new Date(options.now() + PAST_EXPIRES_MS).toUTCString()),
        );
      case "last-modified-future":
        return sendForecastAs(
          request,
          response,
          wholeSeconds(options.now() + FUTURE_LAST_MODIFIED_MS),
          () => undefined,
        );
      case "not-modified-always":
        return void response.writeHead(304, providerHeaders()).end();
    }
  }

  /**
   * sendForecast with another model-run time and adjusted headers: the 304 decision and the Last-Modified sent both
   * follow `modifiedAt`, as they would at MET.
   */
  function sendForecastAs(
    request: IncomingMessage,
    response: ServerResponse,
    modifiedAt: number,
    adjust: (headers: Record<string, string>) => void,
  ): void {
    const headers = { ...providerHeaders(), "last-modified": new Date(modifiedAt).toUTCString() };
    adjust(headers);
    const since = Date.parse(String(request.headers["if-modified-since"]));
    if (since >= modifiedAt) return void response.writeHead(304, headers).end();
    response.writeHead(200, { ...headers, "content-length": String(payload.json.length) }).end(payload.json);
  }

  function resetMidBody(response: ServerResponse): void {
    response.writeHead(200, { ...providerHeaders(), "content-length": String(payload.json.length) });
    // Reset only once the first half has left, so the client really is mid-body and not still awaiting headers.
    response.write(payload.json.subarray(0, payload.json.length >> 1), () =>
      setTimeout(() => response.socket?.resetAndDestroy(), 20),
    );
  }

  function dribble(response: ServerResponse): void {
    response.writeHead(200, { ...providerHeaders(), "content-length": String(payload.json.length) });
    let offset = 0;
    const tick = setInterval(() => {
      if (response.destroyed || offset >= payload.json.length) return clearInterval(tick);
      const from = offset;
      offset += DRIBBLE_BYTES;
      response.write(payload.json.subarray(from, offset));
    }, DRIBBLE_INTERVAL_MS);
    response.on("close", () => clearInterval(tick));
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
    const body = Buffer.from(JSON.stringify({ padding: "x".repeat(options.oversizedBytes ?? OVERSIZED_BYTES) }));
    const headers = { ...providerHeaders(), "content-type": "application/json" };
    if (!announced) {
      response.writeHead(200, headers);
      for (let offset = 0; offset < body.length && !response.destroyed; offset += 64 * 1024)
        response.write(body.subarray(offset, offset + 64 * 1024));
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
  if (![lat, lon].every((value) => /^-?\d+(\.\d{1,4})?$/.test(value)))
    return { status: 403, text: "<html><body>Max 4 decimals</body></html>" };
  return null;
}

function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { "content-type": "text/html" }).end(text);
}

function wholeSeconds(time: number): number {
  return Math.floor(time / 1000) * 1000;
}
