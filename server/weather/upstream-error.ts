import type { ErrorCode } from "../../schemas/errors.ts";

export type WeatherUpstreamCode = Extract<ErrorCode, `UPSTREAM_${string}`>;

/** A provider failure. The message is for operators' logs: it never holds the provider's body or the request URL. */
export class WeatherUpstreamError extends Error {
  readonly code: WeatherUpstreamCode;
  /** How long MET (or our own gate) says to wait before asking again; null when nobody said. */
  readonly retryAfterMs: number | null;
  /** The system or undici code of a failed connection (ECONNREFUSED, ENOTFOUND …), for operators; else null. */
  readonly underlying: string | null;
  constructor(
    code: WeatherUpstreamCode,
    message: string,
    retryAfterMs: number | null = null,
    underlying: string | null = null,
  ) {
    super(message);
    this.name = "WeatherUpstreamError";
    this.code = code;
    this.retryAfterMs = retryAfterMs;
    this.underlying = underlying;
  }
}

/** MET answered with a document that does not hold a usable forecast. */
export function unusableForecast(): WeatherUpstreamError {
  return new WeatherUpstreamError("UPSTREAM_INVALID_PAYLOAD", "MET's document is not a usable forecast");
}
