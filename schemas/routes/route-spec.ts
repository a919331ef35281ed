import type { ErrorCode } from "../errors.ts";
import type { JsonSchema } from "../json-schema.ts";
import type { CsvForm } from "../responses/csv-tables.ts";
import type { MetaFieldName } from "../responses/envelope.ts";
import type { Scope } from "../vocabularies.ts";

/**
 * PUBLIC: no credential. ECOSYSTEM_INTERNAL: an API key with `scope` (any valid key when scope is null).
 * OPERATOR: an operator key; everyone else gets the answer of an unregistered path.
 */
export type RouteAccess = "PUBLIC" | "ECOSYSTEM_INTERNAL" | "OPERATOR";

export interface ParameterSpec {
  name: string;
  in: "query" | "path";
  required: boolean;
  description: string;
  schema: JsonSchema;
}

/** One operation of the contract. The server, the OpenAPI builder and the contract tests all read this. */
export interface RouteSpec {
  name: string;
  method: "GET" | "POST";
  /** OpenAPI path template, e.g. `/api/v1/economics/indicators/{slug}`. */
  path: string;
  tag: "weather" | "economics" | "registry" | "news" | "status" | "service" | "admin";
  summary: string;
  description?: string;
  access: RouteAccess;
  scope: Scope | null;
  requiresDurableStorage: boolean;
  /**
   * The published data the answer is built from, besides its parameters and the clock: the server checks that it is
   * the same before serving a kept answer again (`whileDataStays` in server/route-handlers.ts). Absent: none.
   */
  reads?: "registry" | "index-and-registry";
  /** `Cache-Control: public, max-age=N` and a weak ETag when set. */
  publicCacheSeconds: number | null;
  errorCodes: readonly ErrorCode[];
  ignoredParameters: readonly string[];
  parameters: readonly ParameterSpec[];
  dataSchema: JsonSchema;
  metaFields: readonly MetaFieldName[];
  /** 202 for routes that accept work to be done later, 301 for a path that moved (its Location); 200 when absent. */
  successStatus?: 202 | 301;
  /** Headers a success answer may carry beyond the common ones, by name, with what they say (e.g. a started run's Location). */
  successHeaders?: Record<string, string>;
  /** False for probes (liveness, readiness): not counted in rate limits, so a busy client never makes them fail. */
  rateLimited?: false;
  /** Served as `data` alone, without the envelope (the OpenAPI document, which tools read directly, and the documentation page's files). */
  bare?: true;
  /**
   * A CSV form of the answer (`format=csv` or `Accept: text/csv`): the rows of its `data` and their columns. The
   * `format` parameter, the `text/csv` content and `Vary: Accept` follow from it.
   */
  csv?: CsvForm;
  /** The body's media type; `application/json; charset=utf-8` when absent (other types only for bare routes). */
  mediaType?: string;
  /**
   * False for the documentation page and its assets: pages for people, not operations of the API, so the OpenAPI
   * description (and the reference rendered from it) leaves them out. They are served like any other public route.
   */
  described?: false;
}
