import type { WeatherLookupOutcome } from "../weather/cache.ts";
import type { Principal } from "./auth.ts";

/** What a route handler sees of a request: no HTTP objects, so handlers stay plain functions. */
export interface RouteInput {
  query: URLSearchParams;
  params: Record<string, string>;
  principal: Principal | null;
  /** Milliseconds since the epoch, from the app's clock, fixed for the whole request. */
  now: number;
}

/** A handler's answer: the `data` section and its route-specific `meta` fields. */
export interface RouteResult {
  data: unknown;
  meta?: Record<string, unknown>;
  /** `meta` fields the same in every answer of the route, serialised once (placed after `meta`'s other fields). */
  staticMeta?: StaticMeta;
  /** For list answers: how to rebuild it with only the first `n` items when it exceeds the response ceiling. */
  cut?: { count: number; firstItems(n: number): FirstItems };
  /**
   * Until when (epoch ms; `Infinity` while the data does not change) this answer stays exactly true for the same
   * parameters. Stated with `stillCurrent`, the answer may be kept and served again; else it is built for every
   * request.
   */
  validUntil?: number;
  /** Whether what the answer was built from is still current: the published data it reads, a weather copy. */
  stillCurrent?: () => boolean;
  /** For answers built from a weather cache copy: what the lookup found, for the request's log line. */
  cacheOutcome?: WeatherLookupOutcome;
  /** Headers of this one answer (a started run's `Location`); for answers that are never kept. */
  headers?: Record<string, string>;
}

/** A list answer with only its first items (RouteResult.cut). */
export type FirstItems = Pick<RouteResult, "data" | "meta">;

export type RouteHandler = (input: RouteInput) => RouteResult | Promise<RouteResult>;

/** `meta` fields the same in every answer of a route (units, attribution records), serialised once. */
export class StaticMeta {
  readonly members: string;
  constructor(fields: Record<string, unknown>) {
    this.members = JSON.stringify(fields).slice(1, -1);
  }
}
