/**
 * The publishers' own paths that the publisher stand-in (publisher-standin.ts) answers (see cli/ingest/sources.ts),
 * the source each belongs to, and the content type each is served with.
 */

export const PUBLISHER_PATHS = {
  blsSchedule: "/schedule/news_release/bls.ics",
  eurostatCalendar: "/eurostat/o/calendars/eventsJson",
  ecbMeetings: "/press/calendars/mgcgc/html/index.en.html",
  ecbStatistics: "/press/calendars/statscal/html/index.en.html",
  blsApi: "/publicAPI/v2/timeseries/data/",
  eurostatData: "/eurostat/api/dissemination/sdmx/2.1/data/*",
  ecbData: "/service/data/*",
  blsNewsFeed: "/feed/bls_latest.rss",
  ecbPressFeed: "/rss/press.html",
} as const;

/** Which source each publisher path belongs to (as `service ingest --source` names them). */
export const SOURCE_OF_PATH: Record<keyof typeof PUBLISHER_PATHS, string> = {
  blsSchedule: "labour-stats-release-schedule",
  eurostatCalendar: "eu-stats-release-calendar",
  ecbMeetings: "central-bank-meetings-calendar",
  ecbStatistics: "central-bank-statistics-calendar",
  blsApi: "bls-api",
  eurostatData: "eurostat-sdmx",
  ecbData: "ecb-data",
  blsNewsFeed: "bls-news-feed",
  ecbPressFeed: "ecb-press-feed",
};

/** The content type a publisher path is served with (also the default type of a replacement body). */
export function contentTypeOf(path: string): string {
  if (path.endsWith(".ics")) return "text/calendar; charset=utf-8";
  if (path === PUBLISHER_PATHS.blsNewsFeed) return "application/atom+xml; charset=utf-8";
  if (path === PUBLISHER_PATHS.ecbPressFeed) return "application/rss+xml; charset=utf-8";
  if (path.endsWith(".html")) return "text/html; charset=utf-8";
  if (path.startsWith("/eurostat/api/") || path.startsWith("/service/data/")) return "text/csv; charset=utf-8";
  return "application/json";
}
