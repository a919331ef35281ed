import { COMMON_ERROR_CODES, type ErrorCode } from "../errors.ts";
import { str } from "../json-schema.ts";
import { LIST_SIZES, PAGE_LIMITS, WINDOWS } from "../limits.ts";
import { CREDENTIALED_CALENDAR_CSV, EVENTS_CSV, SERIES_OBSERVATIONS_CSV } from "../responses/csv-tables.ts";
import { credentialedCalendarSchema, eventsListSchema, seriesObservationsSchema } from "../responses/economics.ts";
import { CALENDAR_SOURCES, IMPORTANCE_LEVELS, REGIONS } from "../vocabularies.ts";
import {
  cursorParameter,
  enumListParameter,
  limitParameter,
  listParameter,
  periodParameter,
  slugPathParameter,
  tzParameter,
} from "./parameters.ts";
import type { ParameterSpec, RouteSpec } from "./route-spec.ts";

const storageCodes: ErrorCode[] = [
  ...COMMON_ERROR_CODES,
  "VALIDATION_FAILED",
  "ECONOMICS_RANGE_INVALID",
  "SERVICE_UNAVAILABLE",
  "STORAGE_UNAVAILABLE",
];
const freshnessMeta = ["lastIngestedAt", "lastSuccessfulIngestionAt", "dataUpdatedAt", "nextCursor"] as const;

const rangeParameter = (name: "from" | "to", extra: string, example: string): ParameterSpec => ({
  name,
  in: "query",
  required: false,
  description: `Bare YYYY-MM-DD (read in tz) or an instant with Z or +hh:mm. ${extra} The instant is reduced to its UTC calendar date and compared with scheduledDate. A timestamp without a zone, anything unparsable, a start not before the end, or a span over ${WINDOWS.credentialed.maxDays} days gives ECONOMICS_RANGE_INVALID.`,
  schema: str({ examples: [example] }),
});

/**
 * `limit` of the credentialed observations route: the current listing clamps at its own maximum; asOf and vintages=all
 * clamp as the public observations route does (issue 13).
 */
const currentObservationsLimit = limitParameter(PAGE_LIMITS.credentialedObservations, "Periods per page");
const observationsLimitParameter: ParameterSpec = {
  ...currentObservationsLimit,
  description: `${currentObservationsLimit.description} With asOf or vintages=all it is clamped to ${PAGE_LIMITS.publicObservations.max} instead, as on the public observations route.`,
};

export const eventParameters: ParameterSpec[] = [
  tzParameter(
    "IANA zone of bare dates in from/to and of the local projection. Absent, bare dates are UTC; the events then carry no local projection unless timezone is given (then it is in UTC), and the calendar, always localised, projects in UTC. Unknown gives VALIDATION_FAILED.",
  ),
  rangeParameter("from", "A bare date is midnight in tz.", "2026-11-01"),
  rangeParameter("to", "A bare date expands to the start of the following day in tz.", "2026-11-30"),
  listParameter(
    "country",
    LIST_SIZES.country,
    "ISO 3166-1 alpha-2 codes, case-insensitive; an event filed under a region never matches.",
    "US",
  ),
  enumListParameter("region", REGIONS, LIST_SIZES.region, "case-insensitive"),
  listParameter(
    "currency",
    LIST_SIZES.currency,
    "ISO 4217 codes, case-insensitive, not validated (an unknown code matches nothing).",
    "USD,EUR",
  ),
  enumListParameter("importance", IMPORTANCE_LEVELS, LIST_SIZES.importance, "case-insensitive"),
  listParameter("release", LIST_SIZES.release, "Release slugs, exact and case-sensitive.", "bls-consumer-price-index"),
  {
    ...enumListParameter("source", CALENDAR_SOURCES, LIST_SIZES.source, "exact and case-sensitive"),
    description: `Source slugs (${CALENDAR_SOURCES.join(", ")}), exact and case-sensitive, at most ${LIST_SIZES.source}. An event matches any of its sources.`,
  },
  limitParameter(PAGE_LIMITS.credentialedEvents),
  cursorParameter,
  {
    name: "timezone",
    in: "query",
    required: false,
    description:
      "A switch only: any value not blank after trimming turns on the local projection (a blank one counts as absent, as for every parameter); its value is never read (the zone comes from tz).",
    schema: str({ examples: ["on"] }),
  },
];

const credentialedEconomics = {
  method: "GET",
  tag: "economics",
  access: "ECOSYSTEM_INTERNAL",
  scope: "economics:read",
  requiresDurableStorage: true,
  reads: "index-and-registry",
  publicCacheSeconds: null,
  errorCodes: storageCodes,
} as const;

export const economicsRoutes = [
  {
    ...credentialedEconomics,
    name: "v1.economics.events",
    path: "/api/v1/economics/events",
    summary: "Economic events ordered by scheduled date ascending, paged",
    ignoredParameters: [],
    parameters: eventParameters,
    dataSchema: eventsListSchema,
    csv: EVENTS_CSV,
    metaFields: [...freshnessMeta],
  },
  {
    ...credentialedEconomics,
    name: "v1.economics.calendar",
    path: "/api/v1/economics/calendar",
    summary: "The same events grouped into local days (always localised); limit applies before grouping",
    ignoredParameters: ["timezone"],
    parameters: eventParameters,
    dataSchema: credentialedCalendarSchema,
    csv: CREDENTIALED_CALENDAR_CSV,
    metaFields: [...freshnessMeta],
  },
  {
    ...credentialedEconomics,
    name: "v1.economics.seriesObservations",
    path: "/api/v1/economics/series/{slug}/observations",
    summary:
      "Each reference period of one series: its current vintage, the vintage current at an instant (asOf), or every vintage",
    description:
      "Without asOf or vintages: the current vintage of each period, oldest first (as the public route). " +
      "asOf: each period as the service held it at that instant: its newest vintage recorded by then (recordedAt: the fetch of the document that carried it), with revisionCount, isRevision and previousValue as they were then; periods first recorded later are absent, as are vintages whose document's fetch time is not known (recordedAt null: an old recording), and an asOf before the series' first ingestion is an empty list. " +
      "vintages=all: `periods`, each with every vintage recorded (by asOf when given), oldest first, with the run that recorded it and its archived document. Paging counts periods; a page over the 1 MB response ceiling is cut after a whole period (meta.truncated: true, at least one period served) and nextCursor resumes after it.",
    errorCodes: [...storageCodes, "NOT_FOUND"],
    ignoredParameters: [],
    parameters: [
      slugPathParameter("Series slug; unknown gives NOT_FOUND.", "us-cpi-all-items-nsa"),
      periodParameter("from", "First reference-period code (YYYY-MM, YYYY-Q<n>, …), compared as a string.", "2024-01"),
      periodParameter("to", "Last reference-period code, compared as a string.", "2024-12"),
      {
        name: "asOf",
        in: "query",
        required: false,
        description:
          "An instant with Z or an offset, or YYYY-MM-DD (the end of that day in UTC): answer as the service held the series then. Malformed gives VALIDATION_FAILED.",
        schema: str({ examples: ["2026-06-30T00:00:00Z"] }),
      },
      {
        name: "vintages",
        in: "query",
        required: false,
        description:
          "`all` (case-insensitive): every vintage of each period instead of one. Empty, the current vintage; any other value gives VALIDATION_FAILED.",
        schema: str({ enum: ["all"], examples: ["all"] }),
      },
      observationsLimitParameter,
      cursorParameter,
    ],
    dataSchema: seriesObservationsSchema,
    csv: SERIES_OBSERVATIONS_CSV,
    metaFields: [...freshnessMeta],
  },
] as const satisfies readonly RouteSpec[];
