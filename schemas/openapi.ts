import { ERROR_TABLE, type ErrorCode } from "./errors.ts";
import type { JsonSchema } from "./json-schema.ts";
import type { CsvForm } from "./responses/csv-tables.ts";
import { DERIVED_STATES } from "./responses/economics.ts";
import { envelopeSchema, errorBodySchema } from "./responses/envelope.ts";
import type { ParameterSpec, RouteSpec } from "./routes/route-spec.ts";
import { SERVICE_VERSION } from "./version.ts";

/** The document's `info.version`: the service's one version (version.ts). */
export const OPENAPI_DOCUMENT_VERSION = SERVICE_VERSION;

const EXAMPLE_REQUEST_ID = "7f1c2d9e-4b3a-4c5d-8e6f-0a1b2c3d4e5f";

export interface OpenApiOptions {
  routes: readonly RouteSpec[];
  /**
   * Operator routes answer everyone else like unregistered paths, so the description served to everyone leaves them
   * out; the CLI's copy (`service openapi`, run by operators) includes them.
   */
  includeOperatorRoutes: boolean;
  /** Whether this deployment's storage-backed routes can answer right now. */
  durableStorage: boolean;
  environment: string;
}

const DESCRIPTION = [
  "Provider-independent weather readings and official economic release data. Every answer carries its freshness (meta.cached, meta.cacheAgeSeconds, meta.stale, meta.degraded), provenance and licensing (meta.attributionRecords).",
  "Every success body is `{ data, meta }` (the OpenAPI document itself is served bare); every failure is `{ error: { code, message, requestId } }`. Branch on error.code; messages are not part of the contract.",
  "Rate limits are fixed windows counted per route name and per client (API key on credentialed routes, client address on public ones) on each instance; RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset are sent on every answer.",
  "Every GET operation also answers HEAD: the same status and headers as its GET, without a body; HEAD operations are not listed separately.",
  'The list answers of the economics routes (observations, releases, calendars, events) also come as CSV: `format=csv` or `Accept: text/csv` (format wins; JSON when neither is asked, or for `*/*`). RFC 4180 with CRLF line ends and one header row; one row per record as each operation describes; every cell is the JSON\'s value as the JSON writes it (the publisher\'s exact decimal strings; true/false; null is an empty field). The same parameters, paging and errors (errors stay JSON): the next page is a `Link: <…>; rel="next"` header (absent on the last page) and each publisher\'s terms a `Link: <terms>; rel="license"; title="<licence>"; source="<sourceId>"; required="true|false"; modified="true|false"` header, the CSV form of meta.attributionRecords. Those answers send `Vary: Accept`.',
  `Economic events carry derivedState, computed per request from the clock and never stored: ${DERIVED_STATES.join(", ")}. PAST_DUE_AWAITING_CONFIRMATION means the scheduled time (for a date-only event, the end of its scheduled date in the source zone) has passed without evidence of publication; CONFIRMED_PUBLISHED means publication.confirmed is true; DUE_TODAY means the scheduled date is today in the source zone and the scheduled time (if any) has not passed; UPCOMING is everything earlier; CANCELLED_AT_SOURCE means the source removed the event (status CANCELLED).`,
].join("\n\n");

export function buildOpenApiDocument(options: OpenApiOptions): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of options.routes.filter((candidate) => described(candidate, options))) {
    const item = paths[route.path] ?? {};
    paths[route.path] = item;
    item[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: "3.1.0",
    info: { title: "Weather and economics data service", version: OPENAPI_DOCUMENT_VERSION, description: DESCRIPTION },
    servers: [{ url: "/", description: `This deployment (environment ${options.environment})` }],
    "x-service-durable-storage": options.durableStorage,
    // Only groups with a described operation: the served copy names no "admin" group, as it names no operator route.
    tags: ["weather", "economics", "registry", "news", "status", "service", "admin"]
      .filter((name) => options.routes.some((route) => route.tag === name && described(route, options)))
      .map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        serviceApiKeyBearer: { type: "http", scheme: "bearer", description: "Authorization: Bearer <API_KEY>" },
        serviceApiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key", description: "X-API-Key: <API_KEY>" },
      },
      schemas: { ErrorBody: errorBodySchema },
      headers: {
        "X-Request-Id": {
          description: "Per-response identifier, equal to meta.requestId or error.requestId.",
          schema: { type: "string" },
        },
        "RateLimit-Limit": { description: "Requests allowed in the current window.", schema: { type: "integer" } },
        "RateLimit-Remaining": { description: "Requests left in the current window.", schema: { type: "integer" } },
        "RateLimit-Reset": { description: "Seconds until the window resets.", schema: { type: "integer" } },
        "Retry-After": { description: "Seconds to wait (429 and 503).", schema: { type: "integer" } },
      },
    },
  };
}

/** Whether the description lists the route: not pages for people, and operator routes only in the operators' copy. */
function described(route: RouteSpec, options: OpenApiOptions): boolean {
  return route.described !== false && (options.includeOperatorRoutes || route.access !== "OPERATOR");
}

function operation(route: RouteSpec): Record<string, unknown> {
  const common = commonHeaders(route);
  const success = {
    description: "Success.",
    headers: {
      ...common,
      ...Object.fromEntries(
        Object.entries({ ...route.successHeaders, ...(route.csv ? CSV_HEADERS : {}) }).map(([name, description]) => [
          name,
          { description, schema: { type: "string" } },
        ]),
      ),
    },
    content: {
      [route.mediaType ?? "application/json"]: {
        schema: route.bare ? route.dataSchema : envelopeSchema(route.dataSchema, route.metaFields),
      },
      ...(route.csv ? { "text/csv": { schema: csvSchema(route.csv) } } : {}),
    },
  };
  return {
    operationId: route.name,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    // The schema's first example also as the parameter's own: swagger-ui shows (and fills in) only that one.
    parameters: [...route.parameters, ...(route.csv ? [FORMAT_PARAMETER] : [])].map((parameter) => ({
      ...parameter,
      ...(Array.isArray(parameter.schema.examples) ? { example: parameter.schema.examples[0] } : {}),
    })),
    security: route.access === "PUBLIC" ? [] : [{ serviceApiKeyBearer: [] }, { serviceApiKeyHeader: [] }],
    responses: {
      [route.successStatus ?? 200]: success,
      ...(route.publicCacheSeconds !== null
        ? { 304: { description: "Not modified (If-None-Match matched the weak ETag).", headers: common } }
        : {}),
      ...errorResponses(route.errorCodes),
    },
    "x-service-access": route.access === "PUBLIC" ? "PUBLIC" : "ECOSYSTEM_INTERNAL",
    "x-service-required-scope": route.scope,
    "x-service-route-name": route.name,
    "x-service-requires-durable-storage": route.requiresDurableStorage,
    "x-service-error-codes": [...route.errorCodes],
    "x-service-ignored-parameters": [...route.ignoredParameters],
    "x-service-public-cache-seconds": route.publicCacheSeconds,
  };
}

function commonHeaders(route: RouteSpec): Record<string, unknown> {
  const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
  const headers: Record<string, unknown> = { "X-Request-Id": ref("X-Request-Id") };
  if (route.rateLimited !== false) {
    Object.assign(headers, {
      "RateLimit-Limit": ref("RateLimit-Limit"),
      "RateLimit-Remaining": ref("RateLimit-Remaining"),
      "RateLimit-Reset": ref("RateLimit-Reset"),
    });
  }
  if (route.publicCacheSeconds !== null) {
    headers["Cache-Control"] = {
      description: `public, max-age=${route.publicCacheSeconds}`,
      schema: { type: "string" },
    };
    headers.ETag = {
      description: route.csv
        ? "Weak validator over the data section (JSON) or the whole body (CSV): each form has its own."
        : "Weak validator over the data section.",
      schema: { type: "string" },
    };
  }
  return headers;
}

/** What a route with a CSV form adds to its success answer's headers. */
const CSV_HEADERS = {
  Link: 'CSV only: the next page (`<…>; rel="next"`, absent on the last page) and each publisher\'s terms (`<terms>; rel="license"; title; source; required; modified`).',
  Vary: "Names Accept (with Origin, and Accept-Encoding on large answers): the path answers JSON or CSV by it.",
};

const FORMAT_PARAMETER: ParameterSpec = {
  name: "format",
  in: "query",
  required: false,
  description:
    "`json` or `csv` (case-insensitive): the representation, whatever Accept says. Absent or empty, Accept decides (`text/csv` preferred over `application/json` gives CSV). Any other value gives VALIDATION_FAILED.",
  schema: { type: "string", enum: ["json", "csv"], examples: ["csv"] },
};

function csvSchema(form: CsvForm): JsonSchema {
  const tables = form.tables.map(
    (table) => `one row per ${table.row}; columns: ${table.columns.map((column) => column.name).join(", ")}`,
  );
  return {
    type: "string",
    description: `RFC 4180 CSV with a header row${tables.length > 1 ? ", by the answer's view" : ""}: ${tables.join(". Or ")}.`,
  };
}

function errorResponses(codes: readonly ErrorCode[]): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(ERROR_TABLE[code].status, [...(byStatus.get(ERROR_TABLE[code].status) ?? []), code]);
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, statusCodes]) => [
        String(status),
        {
          description: `error.code one of: ${statusCodes.join(", ")}.`,
          headers: {
            "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
            ...(status === 429 || status === 503
              ? { "Retry-After": { $ref: "#/components/headers/Retry-After" } }
              : {}),
            ...(status === 405
              ? { Allow: { description: "Methods this path accepts.", schema: { type: "string" } } }
              : {}),
          },
          content: {
            "application/json": {
              schema: { $ref: "#/components/schemas/ErrorBody" },
              // Examples with the codes of this status (without them the page shows the schema's first code everywhere).
              examples: Object.fromEntries(
                statusCodes.map((code) => [
                  code,
                  {
                    summary: code,
                    value: { error: { code, message: ERROR_TABLE[code].message, requestId: EXAMPLE_REQUEST_ID } },
                  },
                ]),
              ),
            },
          },
        },
      ]),
  );
}
