import type { Fields, Static } from "../../schemas/json-schema.ts";
import type { AttributionRecordFields, BaseMetaFields, META_FIELDS } from "../../schemas/responses/envelope.ts";
import type { DeclaredRoute } from "../../schemas/routes/all-routes.ts";
import type { WeatherLookupOutcome } from "../weather/cache.ts";
import type { Principal } from "./auth.ts";
import type { SerialisedSection } from "./serialised-section.ts";

/** What a route handler sees of a request: no HTTP objects, so handlers stay plain functions. */
export interface RouteInput {
  query: URLSearchParams;
  params: Record<string, string>;
  principal: Principal | null;
  /** Milliseconds since the epoch, from the app's clock, fixed for the whole request. */
  now: number;
}

/** Each route's `data`, by route name: what its schema admits, or a bare route's body serialised once. */
export type RouteData = {
  [R in DeclaredRoute as R["name"]]: R extends { bare: true } ? SerialisedSection : Static<R["dataSchema"]>;
};

/**
 * A route's own `meta` fields, typed as the envelope's schema has them (requestId and generatedAt, its first two, are
 * each response's).
 */
export type RouteMeta = Partial<
  Omit<Fields<BaseMetaFields & typeof META_FIELDS>, "requestId" | "generatedAt" | "attributionRecords"> & {
    attributionRecords: readonly Static<AttributionRecordFields>[];
  }
>;

/** A handler's answer: the `data` section and its route-specific `meta` fields. */
export interface RouteResult<Data = unknown> {
  data: Data;
  meta?: RouteMeta;
  /** `meta` fields the same in every answer of the route, serialised once (placed after `meta`'s other fields). */
  staticMeta?: StaticMeta;
  /** For list answers: how to rebuild it with only the first `n` items when it exceeds the response ceiling. */
  cut?: { count: number; firstItems(n: number): FirstItems<Data> };
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
export type FirstItems<Data = unknown> = Pick<RouteResult<Data>, "data" | "meta">;

export type RouteHandler<Data = unknown> = (input: RouteInput) => RouteResult<Data> | Promise<RouteResult<Data>>;

/**
 * Handlers by route name, each answering its route's `data`: a handler of the wrong shape fails to compile. The
 * pipeline carries any route's answer (`RouteHandler` unparameterised): it serialises `data`, never reads its fields.
 */
export type RouteHandlers = { [N in keyof RouteData]?: RouteHandler<RouteData[N]> };

/** `meta` fields the same in every answer of a route (units, attribution records), serialised once. */
export class StaticMeta {
  readonly members: string;
  constructor(fields: RouteMeta) {
    this.members = JSON.stringify(fields).slice(1, -1);
  }
}
