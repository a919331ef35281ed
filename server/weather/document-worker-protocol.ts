import type { UpstreamOutcome } from "../upstream/fetch-limited.ts";
import type { LocationRequest, LocationResult, MetClientOptions } from "./met-client.ts";
import type { PackedPayload } from "./stored-payload.ts";
import type { WeatherUpstreamCode } from "./upstream-error.ts";

/** Where and how to ask MET: sent with each request, so one worker serves every weather source of the process. */
export type DocumentClientSettings = Pick<MetClientOptions, "baseUrl" | "userAgent" | "timeoutMs" | "maxBytes">;

/** One request for MET's document of a point. */
export interface DocumentRequest {
  id: number;
  client: DocumentClientSettings;
  request: LocationRequest;
}

/** A WeatherUpstreamError as it crosses between threads (errors lose their class and fields on the way). */
export interface DocumentFailure {
  code: WeatherUpstreamCode;
  message: string;
  retryAfterMs: number | null;
  underlying: string | null;
}

/** An error of our own code in the worker (a defect, not MET's failure): answered as INTERNAL and logged with its stack. */
export interface DocumentDefect {
  message: string;
  stack: string | undefined;
}

/** The answer to request `id`, or how one of its requests to MET ended (for operators' metrics), as it happens. */
export type DocumentWorkerMessage =
  | { id: number; result: LocationResult<PackedPayload> }
  | { id: number; failure: DocumentFailure }
  | { id: number; defect: DocumentDefect }
  | { id: number; call: UpstreamOutcome };
