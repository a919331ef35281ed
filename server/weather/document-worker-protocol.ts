import type { UpstreamOutcome } from "../upstream/fetch-limited.ts";
import type { LocationRequest, LocationResult, MetClientOptions } from "./met-client.ts";
import type { PackedPayload } from "./stored-payload.ts";
import type { WeatherUpstreamError } from "./upstream-error.ts";

/** Where and how to ask MET: sent with each request, so one worker serves every weather source of the process. */
export type DocumentClientSettings = Pick<MetClientOptions, "baseUrl" | "userAgent" | "timeoutMs" | "maxBytes">;

/** One request for MET's document of a point. */
export interface DocumentRequest {
  id: number;
  client: DocumentClientSettings;
  request: LocationRequest;
}

/**
 * About request `id`: how its call to MET ended (metrics, sent at once), then its answer: the payload; MET's failure as
 * fields (errors lose class and fields between threads); or our own defect (INTERNAL, logged with its stack).
 */
export type DocumentWorkerMessage = { id: number } & (
  | { call: UpstreamOutcome }
  | { result: LocationResult<PackedPayload> }
  | { failure: Pick<WeatherUpstreamError, "code" | "message" | "retryAfterMs" | "underlying"> }
  | { defect: { message: string; stack: string | undefined } }
);
