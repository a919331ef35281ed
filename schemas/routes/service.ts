import { COMMON_ERROR_CODES } from "../errors.ts";
import { str } from "../json-schema.ts";
import { PUBLIC_CACHE_SECONDS } from "../limits.ts";
import { capabilitiesSchema, liveSchema, openApiDocumentSchema, readySchema } from "../responses/service.ts";
import type { RouteSpec } from "./route-spec.ts";

export const serviceRoutes = [
  {
    name: "public.health.live",
    method: "GET",
    path: "/api/public/v1/health/live",
    tag: "service",
    summary: "Liveness: the process answers",
    description:
      "For orchestrators' liveness probes: 200 whenever the process can answer at all. Not counted in rate limits.",
    access: "PUBLIC",
    scope: null,
    requiresDurableStorage: false,
    publicCacheSeconds: null,
    errorCodes: [...COMMON_ERROR_CODES],
    ignoredParameters: [],
    parameters: [],
    dataSchema: liveSchema,
    metaFields: [],
    rateLimited: false,
  },
  {
    name: "public.health.ready",
    method: "GET",
    path: "/api/public/v1/health/ready",
    tag: "service",
    summary: "Readiness: the registry is loaded, and the index is published (or storage is deliberately off)",
    description:
      "For readiness probes and load balancers: 200 when this instance can answer its routes, else 503 `SERVICE_UNAVAILABLE` with `Retry-After` (no registry yet, or a store bound with no index from a completed ingestion). Not counted in rate limits.",
    access: "PUBLIC",
    scope: null,
    requiresDurableStorage: false,
    publicCacheSeconds: null,
    errorCodes: [...COMMON_ERROR_CODES, "SERVICE_UNAVAILABLE"],
    ignoredParameters: [],
    parameters: [],
    dataSchema: readySchema,
    metaFields: [],
    rateLimited: false,
  },
  {
    name: "v1.capabilities",
    method: "GET",
    path: "/api/v1/capabilities",
    tag: "service",
    summary:
      "Whether the storage-backed routes can answer on this instance, its environment and its configured sources",
    description: "Any valid API key of this environment may read it; no particular scope is required.",
    access: "ECOSYSTEM_INTERNAL",
    scope: null,
    requiresDurableStorage: false,
    publicCacheSeconds: null,
    errorCodes: [...COMMON_ERROR_CODES],
    ignoredParameters: [],
    parameters: [],
    dataSchema: capabilitiesSchema,
    metaFields: [],
  },
  {
    name: "v1.openapi",
    method: "GET",
    path: "/api/v1/openapi.json",
    tag: "service",
    summary: "This OpenAPI 3.1 description, reflecting the running deployment",
    description:
      "Served as the bare OpenAPI document, not inside the `{ data, meta }` envelope, so tools can read it directly.",
    access: "PUBLIC",
    scope: null,
    requiresDurableStorage: false,
    reads: "index-and-registry",
    publicCacheSeconds: PUBLIC_CACHE_SECONDS.openapi,
    errorCodes: [...COMMON_ERROR_CODES],
    ignoredParameters: [],
    parameters: [],
    dataSchema: openApiDocumentSchema,
    metaFields: [],
    bare: true,
  },
  docsPageFile(
    "service.frontDoor",
    "/",
    "The front door: what this service is and where its documentation, description, probes and status are, for people",
    "text/html; charset=utf-8",
  ),
  {
    ...docsPageFile(
      "docs.pageWithSlash",
      "/docs/",
      "The documentation page's path with a trailing slash: moved permanently to /docs (a relative Location)",
      "text/plain; charset=utf-8",
    ),
    publicCacheSeconds: null,
    successStatus: 301,
  },
  docsPageFile(
    "docs.page",
    "/docs",
    "The interactive reference of this description (swagger-ui), for people",
    "text/html; charset=utf-8",
  ),
  docsPageFile(
    "docs.stylesheet",
    "/docs/swagger-ui.css",
    "The reference page's stylesheet (swagger-ui-dist)",
    "text/css; charset=utf-8",
  ),
  docsPageFile(
    "docs.script",
    "/docs/swagger-ui-bundle.js",
    "The reference page's script (swagger-ui-dist)",
    "text/javascript; charset=utf-8",
  ),
  docsPageFile(
    "docs.scriptLicences",
    "/docs/swagger-ui-bundle.js.LICENSE.txt",
    "The licences of the libraries in that script, which its first line names",
    "text/plain; charset=utf-8",
  ),
  docsPageFile(
    "docs.initializer",
    "/docs/docs-page.js",
    "Starts swagger-ui on the reference page with this server's description",
    "text/javascript; charset=utf-8",
  ),
] as const satisfies readonly RouteSpec[];

/**
 * A file of the documentation page at `/docs`: served bare, with its own media type, cached by browsers, and left out
 * of the OpenAPI description (it is a page for people, not an operation of the API).
 */
function docsPageFile<const N extends string>(name: N, path: string, summary: string, mediaType: string) {
  return {
    name,
    method: "GET",
    path,
    tag: "service",
    summary,
    access: "PUBLIC",
    scope: null,
    requiresDurableStorage: false,
    publicCacheSeconds: PUBLIC_CACHE_SECONDS.docsPage,
    errorCodes: [...COMMON_ERROR_CODES],
    ignoredParameters: [],
    parameters: [],
    dataSchema: str(),
    metaFields: [],
    bare: true,
    mediaType,
    described: false,
  } as const satisfies RouteSpec;
}
