import { COMMON_ERROR_CODES } from "../errors.ts";
import { ingestionRunsSchema, ingestionTriggerSchema } from "../responses/news-status.ts";
import type { RouteSpec } from "./route-spec.ts";

const operator = {
  tag: "admin", access: "OPERATOR", scope: "operator", requiresDurableStorage: true, publicCacheSeconds: null,
  errorCodes: [...COMMON_ERROR_CODES, "NOT_FOUND", "SERVICE_UNAVAILABLE"], ignoredParameters: [], parameters: [],
  dataSchema: ingestionRunsSchema, metaFields: [],
  description: "Operator key only. To every other caller this path answers exactly like an unregistered path (404 NOT_FOUND).",
} as const;

export const adminRoutes: RouteSpec[] = [
  { ...operator, name: "v1.admin.ingestionRuns", method: "GET", path: "/api/v1/admin/ingestion/runs", summary: "The most recent ingestion runs and their source checks" },
  { ...operator, name: "v1.admin.ingestionTrigger", method: "POST", path: "/api/v1/admin/ingestion/runs", summary: "Start an ingestion run now (202; `started` is false when a run is already in progress)", dataSchema: ingestionTriggerSchema, successStatus: 202 },
];

