import { COMMON_ERROR_CODES, type ErrorCode } from "../errors.ts";
import { str } from "../json-schema.ts";
import { CALENDAR_FEED_MAX_EVENTS, LIST_SIZES, PAGE_LIMITS, PUBLIC_CACHE_SECONDS, WINDOWS } from "../limits.ts";
import { PUBLIC_CALENDAR_CSV, PUBLIC_OBSERVATIONS_CSV, RELEASES_CSV } from "../responses/csv-tables.ts";
import { observationsSchema, publicCalendarSchema, releasesSchema } from "../responses/economics.ts";
import { LINK_STATUSES, NEWS_STATES, NEWS_TYPES, newsEventsSchema, statusSchema } from "../responses/news-status.ts";
import { EVENT_STATUSES, REGIONS } from "../vocabularies.ts";
import {
  cursorParameter,
  enumListParameter,
  limitParameter,
  listParameter,
  periodParameter,
  tzParameter,
} from "./parameters.ts";
import type { ParameterSpec, RouteSpec } from "./route-spec.ts";

const publicCodes: ErrorCode[] = [...COMMON_ERROR_CODES, "VALIDATION_FAILED", "NOT_FOUND", "SERVICE_UNAVAILABLE"];
const publicStorage = {
  method: "GET",
  access: "PUBLIC",
  scope: null,
  requiresDurableStorage: true,
  reads: "index-and-registry",
  errorCodes: publicCodes,
  ignoredParameters: [],
} as const;
const freshness = ["lastIngestedAt", "lastSuccessfulIngestionAt", "dataUpdatedAt", "dataStatus", "nextCursor"] as const;

const filter = (name: string, description: string, example: string): ParameterSpec =>
  listParameter(name, LIST_SIZES.publicFilter, description, example);
const window = (days: string): ParameterSpec[] => [
  {
    name: "from",
    in: "query",
    required: false,
    description: `Inclusive start: YYYY-MM-DD in tz, or an ISO instant. ${days}`,
    schema: str({ examples: ["2026-11-01"] }),
  },
  {
    name: "to",
    in: "query",
    required: false,
    description: "Inclusive end: YYYY-MM-DD in tz, or an ISO instant.",
    schema: str({ examples: ["2026-11-30"] }),
  },
];

/** The public calendar's window and filters, shared by its JSON and iCalendar forms. */
const calendarFilters = (tzDescription: string): ParameterSpec[] => [
  ...window(
    `Default ${WINDOWS.publicCalendar.daysBack} days back and ${WINDOWS.publicCalendar.daysAhead} days ahead; at most ${WINDOWS.publicCalendar.maxDays} days.`,
  ),
  tzParameter(tzDescription),
  filter("source", "Source slugs.", "labour-stats-release-schedule"),
  filter("release", "Release slugs.", "bls-consumer-price-index"),
  filter("country", "Country codes.", "US"),
  filter("currency", "Currency codes.", "USD,EUR"),
  enumListParameter("region", REGIONS, LIST_SIZES.publicFilter, "closed; unknown values are refused"),
  enumListParameter("status", EVENT_STATUSES, LIST_SIZES.publicFilter, "closed; unknown values are refused"),
];

export const publicRoutes = [
  {
    ...publicStorage,
    name: "public.economics.calendar",
    path: "/api/public/v1/economics/calendar",
    tag: "economics",
    summary: "Scheduled releases grouped by day",
    publicCacheSeconds: PUBLIC_CACHE_SECONDS.calendar,
    parameters: [
      ...calendarFilters(
        "IANA zone; adds local.date, local.time (null for date-only releases) and local.timeZone. UTC values stay. Absent, there is no local projection and bare dates are UTC.",
      ),
      limitParameter(PAGE_LIMITS.publicCalendar),
      cursorParameter,
    ],
    dataSchema: publicCalendarSchema,
    csv: PUBLIC_CALENDAR_CSV,
    metaFields: [...freshness, "sourceChecks"],
  },
  {
    ...publicStorage,
    name: "public.economics.calendarFeed",
    path: "/api/public/v1/economics/calendar.ics",
    tag: "economics",
    summary: "The public calendar as a subscribable iCalendar feed (RFC 5545)",
    description:
      `Every event of the window (not paged: a window holding more than ${CALENDAR_FEED_MAX_EVENTS} events is VALIDATION_FAILED), with the public calendar's filters and window rules. ` +
      "UID is stable across runs (the event's id followed by @weather-economics-service); DTSTAMP is when ingestion last recorded a change to the event; SEQUENCE counts the times its source changed its schedule or status; " +
      "a timed event is a UTC instant, a date-only event a DATE (no time invented); STATUS:CANCELLED when the source removed the event; URL is the publisher's page; " +
      "each description carries the publisher's credit and terms. Errors are the JSON error body.",
    publicCacheSeconds: PUBLIC_CACHE_SECONDS.calendar,
    parameters: calendarFilters(
      "IANA zone in which bare from/to dates are read (absent, UTC); the feed's times are UTC instants or dates.",
    ),
    dataSchema: str({ description: "text/calendar (RFC 5545)" }),
    metaFields: [],
    bare: true,
    mediaType: "text/calendar; charset=utf-8",
  },
  {
    ...publicStorage,
    name: "public.economics.releases",
    path: "/api/public/v1/economics/releases",
    tag: "economics",
    summary: "The newest published value of each registered series, newest first",
    publicCacheSeconds: PUBLIC_CACHE_SECONDS.releases,
    parameters: [
      listParameter("series", LIST_SIZES.publicSeries, "Series slugs.", "us-cpi-all-items-nsa,ea-unemployment-rate"),
      {
        name: "country",
        in: "query",
        required: false,
        description: "Country code filter.",
        schema: str({ examples: ["US"] }),
      },
      {
        name: "region",
        in: "query",
        required: false,
        description: "Region code filter (closed vocabulary).",
        schema: str({ examples: ["EA"] }),
      },
      limitParameter(
        PAGE_LIMITS.perSeries,
        "Newest reference periods per series, each with its current vintage",
        "perSeries",
      ),
      limitParameter(PAGE_LIMITS.publicReleases),
      cursorParameter,
    ],
    dataSchema: releasesSchema,
    csv: RELEASES_CSV,
    metaFields: [...freshness],
  },
  {
    ...publicStorage,
    name: "public.economics.observations",
    path: "/api/public/v1/economics/observations",
    tag: "economics",
    summary: "The current vintage of each reference period of one series, oldest first",
    publicCacheSeconds: PUBLIC_CACHE_SECONDS.observations,
    parameters: [
      {
        name: "series",
        in: "query",
        required: true,
        description:
          "Series slug. Unknown gives NOT_FOUND; a registered series with nothing ingested gives SERVICE_UNAVAILABLE.",
        schema: str({ examples: ["us-cpi-all-items-nsa"] }),
      },
      periodParameter("from", "First reference-period code, compared as a string.", "2024-01"),
      periodParameter("to", "Last reference-period code, compared as a string.", "2024-12"),
      limitParameter(PAGE_LIMITS.publicObservations),
      cursorParameter,
    ],
    dataSchema: observationsSchema,
    csv: PUBLIC_OBSERVATIONS_CSV,
    metaFields: [...freshness],
  },
  {
    ...publicStorage,
    name: "public.news.events",
    path: "/api/public/v1/news/events",
    tag: "news",
    summary: "The publishers' own announcements, newest first, linked with evidence to calendar events and series",
    publicCacheSeconds: PUBLIC_CACHE_SECONDS.news,
    parameters: [
      ...window(`Default the last ${WINDOWS.publicNews.daysBack} days.`),
      tzParameter("IANA zone in which bare dates in from/to are read; absent, UTC. Unknown gives VALIDATION_FAILED."),
      filter("source", "Feed ids.", "bls-news-feed"),
      filter("releaseFamily", "Release slugs.", "bls-consumer-price-index"),
      filter("series", "Series slugs.", "us-cpi-all-items-nsa"),
      filter("country", "Country codes.", "US"),
      filter("topic", "Topics.", "prices"),
      enumListParameter("state", NEWS_STATES, LIST_SIZES.publicFilter, "closed"),
      enumListParameter("linkStatus", LINK_STATUSES, LIST_SIZES.publicFilter, "closed"),
      enumListParameter("type", NEWS_TYPES, LIST_SIZES.publicFilter, "closed"),
      limitParameter(PAGE_LIMITS.publicNews),
      cursorParameter,
    ],
    dataSchema: newsEventsSchema,
    metaFields: ["dataUpdatedAt", "dataStatus", "nextCursor"],
  },
  {
    ...publicStorage,
    name: "public.status",
    path: "/api/public/v1/status",
    tag: "status",
    summary: "Per-domain status with when each feed last received data and last succeeded",
    requiresDurableStorage: false,
    errorCodes: [...COMMON_ERROR_CODES],
    publicCacheSeconds: PUBLIC_CACHE_SECONDS.status,
    parameters: [],
    dataSchema: statusSchema,
    metaFields: [],
  },
] as const satisfies readonly RouteSpec[];
