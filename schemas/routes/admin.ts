import { COMMON_ERROR_CODES } from "../errors.ts";
import { RUN_ID_PATTERN } from "../ingestion-runs.ts";
import { enumOf, str } from "../json-schema.ts";
import { ingestionRunSchema, ingestionRunsSchema, ingestionTriggerSchema } from "../responses/admin.ts";
import type { RouteSpec } from "./route-spec.ts";

const operator = {
  tag: "admin",
  access: "OPERATOR",
  scope: "operator",
  requiresDurableStorage: true,
  publicCacheSeconds: null,
  errorCodes: [...COMMON_ERROR_CODES, "NOT_FOUND", "SERVICE_UNAVAILABLE", "STORAGE_UNAVAILABLE"],
  ignoredParameters: [],
  parameters: [],
  dataSchema: ingestionRunsSchema,
  metaFields: [],
  description:
    "Operator key only. To every other caller this path answers exactly like an unregistered path (404 NOT_FOUND).",
} as const;

/** Where one run answers; the trigger's Location points here. */
export const INGESTION_RUN_PATH = "/api/v1/admin/ingestion/runs/{runId}";

export const adminRoutes = [
  {
    ...operator,
    name: "v1.admin.ingestionRuns",
    method: "GET",
    path: "/api/v1/admin/ingestion/runs",
    summary: "The most recent ingestion runs and their source checks",
  },
  {
    ...operator,
    name: "v1.admin.ingestionTrigger",
    method: "POST",
    path: "/api/v1/admin/ingestion/runs",
    summary:
      "Start an ingestion run now: 202 with the new run's id and a Location for it; when a run is already in progress, `started` is false and runId and Location name that run",
    parameters: [
      {
        name: "due",
        in: "query",
        required: false,
        description:
          "true: a due run (`service ingest --due`), asking only for the releases due now; when nothing is due no run starts, `started` is false and `nothingDue` says until when. Absent, blank or false (in any case): a full run. Anything else: 400 VALIDATION_FAILED.",
        schema: enumOf(["true", "false"]),
      },
    ],
    dataSchema: ingestionTriggerSchema,
    successStatus: 202,
    successHeaders: {
      Location:
        "The run's own route, `/api/v1/admin/ingestion/runs/{runId}` (absent when the run in progress is not recorded yet).",
    },
  },
  {
    ...operator,
    name: "v1.admin.ingestionRun",
    method: "GET",
    path: INGESTION_RUN_PATH,
    summary:
      "One ingestion run: its state, times, each source's check, and the progress log of a run started through this API",
    parameters: [
      {
        name: "runId",
        in: "path",
        required: true,
        description: "A run id as the trigger or the run list gave it. Unknown: 404 NOT_FOUND.",
        schema: str({ pattern: RUN_ID_PATTERN.source, examples: ["run_20261121T060000_a1b2c3"] }),
      },
    ],
    dataSchema: ingestionRunSchema,
  },
  {
    ...operator,
    name: "v1.admin.metrics",
    method: "GET",
    path: "/api/v1/admin/metrics",
    summary:
      "This instance's metrics in Prometheus text format (requests and latency per route and status, weather cache, upstream calls, the index, ingestion runs, the process)",
    description: `${operator.description} Served bare as text for Prometheus to scrape; not counted in rate limits, so a scraper never sees a gap. SERVICE_METRICS_PORT serves the same text on a separate listener.`,
    requiresDurableStorage: false,
    errorCodes: [...COMMON_ERROR_CODES, "NOT_FOUND"],
    dataSchema: str({ description: "Prometheus text exposition format 0.0.4" }),
    bare: true,
    mediaType: "text/plain; version=0.0.4; charset=utf-8",
    rateLimited: false,
  },
] as const satisfies readonly RouteSpec[];
