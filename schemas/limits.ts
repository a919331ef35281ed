/** Every clamp, default and list size of the contract (spec "Limits"), defined once for routes, CLI and OpenAPI. */

export interface PageLimit {
  default: number;
  max: number;
}

export const PAGE_LIMITS = {
  credentialedForecastDays: { default: 9, max: 10 },
  credentialedEvents: { default: 100, max: 500 },
  seriesListing: { default: 100, max: 500 },
  credentialedObservations: { default: 100, max: 500 },
  publicCalendar: { default: 50, max: 200 },
  publicReleases: { default: 20, max: 100 },
  publicObservations: { default: 100, max: 365 },
  publicNews: { default: 20, max: 100 },
  publicForecastHours: { default: 24, max: 48 },
  publicForecastDays: { default: 7, max: 10 },
  places: { default: 10, max: 50 },
  /** Newest reference periods per series on the releases route. */
  perSeries: { default: 1, max: 5 },
} as const satisfies Record<string, PageLimit>;

export const LIST_SIZES = {
  country: 25,
  region: 10,
  currency: 10,
  importance: 4,
  release: 25,
  source: 10,
  publicFilter: 10,
  publicSeries: 10,
} as const;

/** A listing's date window: its longest span, and the default's days back and ahead of today. */
export interface DateWindow {
  maxDays: number;
  daysBack: number;
  daysAhead: number;
}

export const WINDOWS = {
  /** The spec names no default window for the credentialed events and calendar: they take the public calendar's. */
  credentialed: { maxDays: 400, daysBack: 7, daysAhead: 31 },
  publicCalendar: { maxDays: 93, daysBack: 7, daysAhead: 31 },
  /** maxDays is not a contract limit: it bounds one request's work; ten years is far more than a feed keeps. */
  publicNews: { maxDays: 3660, daysBack: 366, daysAhead: 0 },
} as const satisfies Record<string, DateWindow>;

export const COORDINATES = {
  credentialedDecimals: 4,
  publicDecimals: 2,
  latitude: { min: -90, max: 90 },
  longitude: { min: -180, max: 180 },
  altitude: { min: -500, max: 9000 },
} as const;

export const PLACES_MIN_QUERY_LENGTH = 2;

/** `q` of the series and indicator listings: bounds on the work one search asks for (not named by the spec). */
export const REGISTRY_SEARCH = { maxCharacters: 100, maxWords: 8 } as const;

/** A serialised page above this many bytes is cut to fit and marked `meta.truncated`. */
export const RESPONSE_CEILING_BYTES = 1_000_000;

/** `Cache-Control: public, max-age=N` per route family (spec "Limits"). */
export const PUBLIC_CACHE_SECONDS = {
  registry: 3600,
  /** Not named by the spec: the gazetteer changes only when `service places` is rerun. */
  places: 3600,
  /** Not named by the spec: the description changes only with a deployment or its storage state. */
  openapi: 3600,
  /** Not named by the spec: the documentation page and its assets change only with a deployment. */
  docsPage: 3600,
  calendar: 300,
  releases: 300,
  observations: 600,
  news: 300,
  status: 30,
  weatherCurrent: 600,
  weatherForecast: 1800,
} as const;

/** Economics data is `fresh` while the last successful ingestion is younger than this; `stale` after. */
export const DATA_FRESH_HOURS = 36;

/**
 * The iCalendar feed is not paged: a window holding more events is refused (93 days of every calendar hold about 700).
 */
export const CALENDAR_FEED_MAX_EVENTS = 5_000;
