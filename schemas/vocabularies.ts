/** The closed vocabularies of the contract, each defined once (spec "Enumerations"). */

export const REGIONS = ["EA", "EU27_2020", "G7", "G20", "OECD", "WORLD"] as const;
export type Region = (typeof REGIONS)[number];

export const IMPORTANCE_LEVELS = ["HIGH", "MEDIUM", "LOW", "UNCLASSIFIED"] as const;
export type Importance = (typeof IMPORTANCE_LEVELS)[number];

export const CATEGORIES = [
  "PRICES", "LABOUR", "GROWTH", "PRODUCTION", "CONSUMPTION", "TRADE", "HOUSING",
  "BUSINESS_ACTIVITY", "MONETARY_POLICY", "MONEY_AND_CREDIT", "PUBLIC_FINANCE",
  "EXTERNAL_SECTOR", "CONFIDENCE", "WAGES_AND_COSTS", "FINANCIAL_STABILITY", "OTHER",
] as const;
export type Category = (typeof CATEGORIES)[number];

export const CALENDAR_SOURCES = [
  "labour-stats-release-schedule",
  "eu-stats-release-calendar",
  "central-bank-meetings-calendar",
  "central-bank-statistics-calendar",
] as const;
export type CalendarSource = (typeof CALENDAR_SOURCES)[number];

/** Publishers' own announcement feeds (news events). Eurostat has none: its announcements come from its calendar. */
export const NEWS_FEEDS = ["bls-news-feed", "ecb-press-feed"] as const;
export type NewsFeed = (typeof NEWS_FEEDS)[number];

/** The publishers' data APIs that observations are ingested from. */
export const OBSERVATION_APIS = ["bls-api", "eurostat-sdmx", "ecb-data"] as const;
export type ObservationApi = (typeof OBSERVATION_APIS)[number];

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
