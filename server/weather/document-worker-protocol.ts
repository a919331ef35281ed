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
 * About request `id`: how its request to MET ended (for operators' metrics, sent as soon as it ends), then its answer:
 * the packed payload; MET's failure as its fields (errors lose their class and fields between threads); or an error of
 * our own code (a defect, not MET's failure: answered as INTERNAL and logged with its stack).
 */
export type DocumentWorkerMessage = { id: number } & (
  | { call: UpstreamOutcome }
  | { result: LocationResult<PackedPayload> }
  | { failure: Pick<WeatherUpstreamError, "code" | "message" | "retryAfterMs" | "underlying"> }
  | { defect: { message: string; stack: string | undefined } }
);
