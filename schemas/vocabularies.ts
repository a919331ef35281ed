/** The closed vocabularies of the contract, each defined once (spec "Enumerations"). */

export const REGIONS = ["EA", "EU27_2020", "G7", "G20", "OECD", "WORLD"] as const;
export type Region = (typeof REGIONS)[number];

export const IMPORTANCE_LEVELS = ["HIGH", "MEDIUM", "LOW", "UNCLASSIFIED"] as const;
export type Importance = (typeof IMPORTANCE_LEVELS)[number];

export const CATEGORIES = [
  "PRICES",
  "LABOUR",
  "GROWTH",
  "PRODUCTION",
  "CONSUMPTION",
  "TRADE",
  "HOUSING",
  "BUSINESS_ACTIVITY",
  "MONETARY_POLICY",
  "MONEY_AND_CREDIT",
  "PUBLIC_FINANCE",
  "EXTERNAL_SECTOR",
  "CONFIDENCE",
  "WAGES_AND_COSTS",
  "FINANCIAL_STABILITY",
  "OTHER",
] as const;
export type Category = (typeof CATEGORIES)[number];

export const CALENDAR_SOURCES = [
  "labour-stats-release-schedule",
  "eu-stats-release-calendar",
  "central-bank-meetings-calendar",
  "central-bank-statistics-calendar",
] as const;
export type CalendarSource = (typeof CALENDAR_SOURCES)[number];

/**
 * Why a calendar record did not become an event (kept in the store and named in the run summary):
 * - `DATE_THE_SOURCE_GETS_WRONG`: a date no calendar of that publisher reaches (Eurostat once listed 2189-05-10);
 * - `NOT_A_RELEASE`: a meeting that publishes nothing (the ECB's non-monetary policy and General Council meetings, the
 *   first day of a two-day monetary policy meeting);
 * - `UNREADABLE`: no id, title or readable date;
 * - `SECOND_RECORD_WITH_ONE_ID`: the document lists the id twice; the first record stands.
 */
export const CALENDAR_SKIP_REASONS = [
  "DATE_THE_SOURCE_GETS_WRONG",
  "NOT_A_RELEASE",
  "UNREADABLE",
  "SECOND_RECORD_WITH_ONE_ID",
] as const;
export type CalendarSkipReason = (typeof CALENDAR_SKIP_REASONS)[number];

/** Publishers' own announcement feeds (news events). Eurostat has none: its announcements come from its calendar. */
export const NEWS_FEEDS = ["bls-news-feed", "ecb-press-feed"] as const;
export type NewsFeed = (typeof NEWS_FEEDS)[number];

/** The publishers' data APIs that observations are ingested from. */
export const OBSERVATION_APIS = ["bls-api", "eurostat-sdmx", "ecb-data"] as const;
export type ObservationApi = (typeof OBSERVATION_APIS)[number];

/** How a served economic value came to be (provenance `derivation`): the publisher's own figure, or computed by the service. */
export const VALUE_DERIVATIONS = ["PUBLISHER_VALUE", "SERVICE_DERIVED"] as const;
export type ValueDerivation = (typeof VALUE_DERIVATIONS)[number];

/**
 * What the service did to a value on its way from the publisher's document to an answer (provenance `transformation`):
 * - `PERIOD_CODE_REWRITTEN`: the publisher's period notation restated as our code (BLS `2026 M07` as `2026-07`);
 * - `MISSING_MARKER_AS_NULL`: the publisher's no-value mark (`-`, `:`, an empty cell, a no-data position) served as null;
 * - `UPDATE_TIME_TO_UTC`: the publisher's local update time restated as a UTC instant;
 * - `JSON_NUMBER_TEXT_KEPT`: a value the document carries as a JSON number, kept as the digits written (never a float);
 * - the computations of derived series: `PERCENT_CHANGE_YEAR_AGO` or `PERCENT_CHANGE_PREVIOUS_PERIOD` with
 *   `ROUNDED_HALF_UP`, `LEVEL_IN_FORCE_AT_PERIOD_END`, `VALUE_ON_LAST_TARGET_BUSINESS_DAY`.
 */
export const VALUE_TRANSFORMATIONS = [
  "PERIOD_CODE_REWRITTEN",
  "MISSING_MARKER_AS_NULL",
  "UPDATE_TIME_TO_UTC",
  "JSON_NUMBER_TEXT_KEPT",
  "PERCENT_CHANGE_YEAR_AGO",
  "PERCENT_CHANGE_PREVIOUS_PERIOD",
  "ROUNDED_HALF_UP",
  "LEVEL_IN_FORCE_AT_PERIOD_END",
  "VALUE_ON_LAST_TARGET_BUSINESS_DAY",
] as const;
export type ValueTransformation = (typeof VALUE_TRANSFORMATIONS)[number];

/** Slugs of families, series and releases. */
export const SLUG_PATTERN = "^[a-z0-9-]+$";

export const PUBLISHERS = ["BLS", "EUROSTAT", "ECB"] as const;
export type Publisher = (typeof PUBLISHERS)[number];

/** CANCELLED: the source removed the event from its calendar before its date (a cancelled release disappears). */
export const EVENT_STATUSES = ["SCHEDULED", "RESCHEDULED", "PUBLISHED", "CANCELLED"] as const;

export const TIME_PRECISIONS = ["EXACT_TIME", "DATE_ONLY"] as const;
export type TimePrecision = (typeof TIME_PRECISIONS)[number];

export const FREQUENCIES = ["DAILY", "MONTHLY", "QUARTERLY", "ANNUAL", "IRREGULAR"] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export const SEASONAL_ADJUSTMENTS = [
  "SEASONALLY_ADJUSTED",
  "NOT_SEASONALLY_ADJUSTED",
  "SEASONALLY_AND_CALENDAR_ADJUSTED",
  "CALENDAR_ADJUSTED",
  "NOT_APPLICABLE",
] as const;
export type SeasonalAdjustment = (typeof SEASONAL_ADJUSTMENTS)[number];

export const SERIES_TRANSFORMATIONS = [
  "LEVEL",
  "INDEX",
  "RATE",
  "PERCENT_CHANGE_PERIOD",
  "PERCENT_CHANGE_YEAR_AGO",
  "CHANGE_PERIOD",
] as const;
export type SeriesTransformation = (typeof SERIES_TRANSFORMATIONS)[number];

export const RUN_OUTCOMES = ["running", "succeeded", "partial", "failed"] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

/** A source's check in one run; `not_recorded` is only ever reported, for a source never checked. */
export const CHECK_RESULTS = ["successful", "incomplete"] as const;
export type CheckResult = (typeof CHECK_RESULTS)[number];

export const DATA_STATUSES = ["fresh", "stale", "unavailable"] as const;
export type DataStatus = (typeof DATA_STATUSES)[number];

export const DOMAIN_STATUSES = ["ok", "degraded", "unavailable", "unknown"] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

export const SCOPES = ["weather:read", "economics:read", "operator"] as const;
export type Scope = (typeof SCOPES)[number];

/** Reference-period codes are `YYYY-MM` or `YYYY-Q<n>` (plus `YYYY` for annual and `YYYY-MM-DD` for daily series). */
export const REFERENCE_PERIOD_PATTERN = "^[0-9]{4}(-(0[1-9]|1[0-2])(-[0-3][0-9])?|-Q[1-4])?$";

/** Fields of an event whose changes by its sources are listed in `changes[]` (cli/ingest/event-changes.ts). */
export const EVENT_CHANGE_FIELDS = [
  "title",
  "scheduledDate",
  "scheduledAt",
  "timePrecision",
  "sourceTimezone",
  "referencePeriod",
  "status",
  "release",
] as const;
export type EventChangeField = (typeof EVENT_CHANGE_FIELDS)[number];
