/** The requests the benchmark measures, and the targets each must meet beside its ceiling. */

export type RouteKind = "weather" | "storage";

export interface Targets {
  /** Least acceptable service req/s divided by ceiling req/s. */
  minRatio: number;
  maxP99Ms: number;
}

export const TARGETS: Readonly<Record<RouteKind, Targets>> = {
  // Weather answers come from the in-memory cache: little work beyond writing the bytes.
  weather: { minRatio: 0.7, maxP99Ms: 5 },
  // Storage and registry answers read SQLite or the registry and page the result.
  storage: { minRatio: 0.5, maxP99Ms: 10 },
};

export interface BenchRoute {
  name: string;
  kind: RouteKind;
  /** Path and query, exactly as requested from both the service and the ceiling. */
  pathAndQuery: string;
  credentialed: boolean;
}

/** What a data set must name for its storage routes to return data rather than empty pages. */
export interface DatasetProfile {
  /** A series with many reference periods. */
  observationsSeries: string;
  /** A year that holds scheduled events. */
  eventsYear: number;
}

/** The bundled sample archive: us-cpi-all-items-nsa holds 29 periods; the 2025-2026 BLS schedule fills 2025. */
export const SAMPLE_PROFILE: DatasetProfile = { observationsSeries: "us-cpi-all-items-nsa", eventsYear: 2025 };

export const WEATHER_ROUTES: readonly BenchRoute[] = [
  {
    name: "public weather current",
    kind: "weather",
    credentialed: false,
    pathAndQuery: "/api/public/v1/weather/current?lat=59.91&lon=10.75",
  },
  {
    name: "credentialed weather current",
    kind: "weather",
    credentialed: true,
    pathAndQuery: "/api/v1/weather/current?lat=59.9139&lon=10.7522",
  },
  {
    name: "public weather forecast",
    kind: "weather",
    credentialed: false,
    pathAndQuery: "/api/public/v1/weather/forecast?lat=59.91&lon=10.75&tz=Europe/Oslo",
  },
  {
    name: "credentialed weather forecast",
    kind: "weather",
    credentialed: true,
    pathAndQuery: "/api/v1/weather/forecast?lat=59.9139&lon=10.7522&tz=Europe/Oslo",
  },
  {
    name: "public weather forecast, tz=auto",
    kind: "weather",
    credentialed: false,
    pathAndQuery: "/api/public/v1/weather/forecast?lat=59.91&lon=10.75&tz=auto",
  },
];

/** Routes answered from the published index or the registry: measured on every data set. */
export function storageRoutes(profile: DatasetProfile): BenchRoute[] {
  const year = profile.eventsYear;
  const series = encodeURIComponent(profile.observationsSeries);
  const route = (name: string, credentialed: boolean, pathAndQuery: string): BenchRoute => ({
    name,
    kind: "storage",
    credentialed,
    pathAndQuery,
  });
  return [
    route(
      "credentialed events, a year, limit 100",
      true,
      `/api/v1/economics/events?from=${year}-01-01&to=${year}-12-31&limit=100&tz=America/New_York`,
    ),
    route(
      "credentialed calendar, six months",
      true,
      `/api/v1/economics/calendar?from=${year}-01-01&to=${year}-06-30&tz=Europe/Berlin`,
    ),
    route("public calendar, default window", false, "/api/public/v1/economics/calendar"),
    route(
      "public calendar as iCalendar, three months",
      false,
      `/api/public/v1/economics/calendar.ics?from=${year}-01-01&to=${year}-03-31`,
    ),
    route("public releases", false, "/api/public/v1/economics/releases"),
    route("public observations", false, `/api/public/v1/economics/observations?series=${series}`),
    route(
      "credentialed observations as of a date",
      true,
      `/api/v1/economics/series/${series}/observations?asOf=${year}-06-30`,
    ),
    route(
      "credentialed observations, every vintage",
      true,
      `/api/v1/economics/series/${series}/observations?vintages=all`,
    ),
    route("registry series listing", false, "/api/v1/economics/series"),
    route("public news", false, "/api/public/v1/news/events"),
    route("status", false, "/api/public/v1/status"),
  ];
}
