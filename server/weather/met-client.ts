import { gunzipSync } from "node:zlib";
import {
  fetchLimited,
  headerValue,
  type LimitedResponse,
  retryAfterMs,
  type UpstreamCallRecorder,
  UpstreamRequestError,
} from "../upstream/fetch-limited.ts";
import { roundPoint, type WeatherPoint } from "./point.ts";
import { WeatherUpstreamError } from "./upstream-error.ts";
import { requireUserAgent } from "./weather-settings.ts";

export interface MetClientOptions {
  /** Scheme and host only (`https://api.met.no` in production); MET's path is appended. */
  baseUrl: string;
  /** MET blocks requests without an identifying User-Agent (application name plus contact). */
  userAgent: string;
  /** Ceiling on the whole exchange, headers and body. */
  timeoutMs: number;
  /** Ceiling on the body, both as received and after gzip decompression. */
  maxBytes: number;
  /** Told how each request to MET ended (operators' metrics). */
  recordCall?: UpstreamCallRecorder;
}

export interface LocationRequest extends WeatherPoint {
  /** The Last-Modified of the stored copy, verbatim: MET's terms ask for exactly that value, never a computed time. */
  ifModifiedSince?: string;
}

interface ProviderFreshness {
  /** MET's Expires as epoch ms; null when absent or unparsable. */
  expires: number | null;
  lastModified: string | null;
}

/** `body` is MET's parsed document, or what a client built from it (the document worker's packed payload). */
export type LocationResult<B = unknown> =
  | ({ kind: "modified"; body: B } & ProviderFreshness)
  | ({ kind: "not-modified" } & ProviderFreshness);

export interface MetClient<B = unknown> {
  fetchLocation(request: LocationRequest): Promise<LocationResult<B>>;
}

const LOCATIONFORECAST_PATH = "/weatherapi/locationforecast/2.0/complete";

export function createMetClient(options: MetClientOptions): MetClient {
  requireUserAgent(options.userAgent);
  const endpoint = options.baseUrl.replace(/\/+$/, "") + LOCATIONFORECAST_PATH;

  return {
    async fetchLocation(request) {
      const headers: Record<string, string> = { accept: "application/json", "accept-encoding": "gzip" };
      if (request.ifModifiedSince !== undefined) headers["if-modified-since"] = request.ifModifiedSince;
      const response = await send(`${endpoint}?${locationQuery(request)}`, headers, options);
      const freshness: ProviderFreshness = {
        expires: parseHttpDate(headerValue(response.headers, "expires")),
        lastModified: headerValue(response.headers, "last-modified"),
      };
      if (response.status === 304) return { kind: "not-modified", ...freshness };
      // 203 is MET's warning that the product version is deprecated or in beta; the body is still the forecast.
      if (response.status !== 200 && response.status !== 203) {
        const waitMs =
          response.status === 429 || response.status === 503
            ? retryAfterMs(headerValue(response.headers, "retry-after"))
            : null;
        throw new WeatherUpstreamError("UPSTREAM_UNAVAILABLE", `MET answered HTTP ${response.status}`, waitMs);
      }
      return { kind: "modified", body: parseJson(decodeBody(response, options.maxBytes)), ...freshness };
    },
  };
}

function locationQuery(point: WeatherPoint): string {
  const rounded = roundPoint(point);
  const query = new URLSearchParams({ lat: String(rounded.lat), lon: String(rounded.lon) });
  if (rounded.altitude !== undefined) query.set("altitude", String(rounded.altitude));
  return query.toString();
}

async function send(url: string, headers: Record<string, string>, options: MetClientOptions): Promise<LimitedResponse> {
  try {
    return await fetchLimited({ url, headers }, options);
  } catch (error) {
    if (!(error instanceof UpstreamRequestError)) throw error;
    switch (error.failure) {
      case "timeout":
        throw new WeatherUpstreamError("UPSTREAM_TIMEOUT", `MET did not answer within ${options.timeoutMs} ms`);
      case "too-large":
        throw new WeatherUpstreamError("UPSTREAM_PAYLOAD_TOO_LARGE", `MET sent more than ${options.maxBytes} bytes`);
      default:
        // The cause (ECONNREFUSED, a TLS code …) tells an operator where to look.
        throw new WeatherUpstreamError(
          "UPSTREAM_UNAVAILABLE",
          `MET could not be reached (${error.underlying ?? "unknown cause"})`,
          null,
          error.underlying,
        );
    }
  }
}

function decodeBody(response: LimitedResponse, maxBytes: number): string {
  const encoding = headerValue(response.headers, "content-encoding")?.trim().toLowerCase() ?? "identity";
  if (encoding === "identity") return response.body.toString("utf8");
  if (encoding !== "gzip")
    throw new WeatherUpstreamError("UPSTREAM_INVALID_PAYLOAD", `MET used an unrequested content encoding`);
  try {
    // The ceiling applies after decompression too. Synchronous on the document worker: the thread pool would give
    // each of its threads an allocator arena.
    return gunzipSync(response.body, { maxOutputLength: maxBytes }).toString("utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") {
      throw new WeatherUpstreamError("UPSTREAM_PAYLOAD_TOO_LARGE", `MET's body expands past ${maxBytes} bytes`);
    }
    throw new WeatherUpstreamError("UPSTREAM_INVALID_PAYLOAD", "MET's gzip body could not be decompressed");
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new WeatherUpstreamError("UPSTREAM_INVALID_PAYLOAD", "MET's body is not JSON");
  }
}

function parseHttpDate(value: string | null): number | null {
  const time = value === null ? Number.NaN : Date.parse(value);
  return Number.isNaN(time) ? null : time;
}
