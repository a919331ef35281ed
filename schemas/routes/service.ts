import { COMMON_ERROR_CODES } from "../errors.ts";
import { PUBLIC_CACHE_SECONDS } from "../limits.ts";
import { capabilitiesSchema, openApiDocumentSchema } from "../responses/service.ts";
import type { RouteSpec } from "./route-spec.ts";

export const serviceRoutes: RouteSpec[] = [
  {
    name: "v1.capabilities",
    method: "GET",
    path: "/api/v1/capabilities",
    tag: "service",
    summary: "Whether the storage-backed routes can answer on this instance, its environment and its configured sources",
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
    description: "Served as the bare OpenAPI document, not inside the `{ data, meta }` envelope, so tools can read it directly.",
    access: "PUBLIC",
    scope: null,
    requiresDurableStorage: false,
    publicCacheSeconds: PUBLIC_CACHE_SECONDS.openapi,
    errorCodes: [...COMMON_ERROR_CODES],
    ignoredParameters: [],
    parameters: [],
    dataSchema: openApiDocumentSchema,
    metaFields: [],
    bare: true,
  },
];
