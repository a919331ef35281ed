/** What the soak run asks the service, and how often: every public and credentialed family of routes at once. */
import { SAMPLE_PROFILE } from "../service-benchmark/routes.ts";

export type RouteGroup = "weather" | "economics" | "registry" | "news" | "status";

export interface SoakRequest {
  /** The label answers are counted under, e.g. "public weather current". */
  route: string;
  group: RouteGroup;
  pathAndQuery: string;
  credentialed: boolean;
  /**
   * Answered from a file ingestion publishes by rename (index.sqlite, registry.json). Both exist from before the load
   * starts to after it ends, so every answer must be 200 and look like the baseline, however often they are replaced.
   */
  fromPublishedFile: boolean;
}

/**
 * Points asked again and again: cached after their first answer, they live until their TTL (the stand-in's short
 * Expires clamped to the service's 5-minute minimum) and are then revalidated with If-Modified-Since.
 */
export const HOT_POINTS = 100;
/**
 * Points asked now and then: with the cache bound below hot + roaming, they keep evicting each other, so cold points
 * (and MET calls, and MET's failures) go on for the whole run rather than only at its start.
 */
export const ROAMING_POINTS = 400;
/** The service's SERVICE_WEATHER_CACHE_ENTRIES for the run: all hot points plus half the roaming ones. */
export const WEATHER_CACHE_ENTRIES = HOT_POINTS + ROAMING_POINTS / 2;
const HOT_SHARE = 0.7;

/** 2-decimal points, valid on both the public (2) and credentialed (4 decimals) routes, so they share cache entries. */
function point(index: number): { lat: string; lon: string } {
  if (index < HOT_POINTS) return { lat: (50 + index / 100).toFixed(2), lon: "10.00" };
  const roaming = index - HOT_POINTS;
  return { lat: (30 + Math.floor(roaming / 20) / 100).toFixed(2), lon: (20 + (roaming % 20) / 100).toFixed(2) };
}

interface WeightedRoute {
  weight: number;
  make: (random: () => number) => SoakRequest;
}

function weatherRoute(route: string, credentialed: boolean, kind: "current" | "forecast"): WeightedRoute["make"] {
  const prefix = credentialed ? "/api/v1/weather" : "/api/public/v1/weather";
  return (random) => {
    const index =
      random() < HOT_SHARE ? Math.floor(random() * HOT_POINTS) : HOT_POINTS + Math.floor(random() * ROAMING_POINTS);
    const { lat, lon } = point(index);
    const tz = kind === "forecast" ? "&tz=Europe/Berlin" : "";
    return {
      route,
      group: "weather",
      credentialed,
      fromPublishedFile: false,
      pathAndQuery: `${prefix}/${kind}?lat=${lat}&lon=${lon}${tz}`,
    };
  };
}

function fixed(
  route: string,
  group: RouteGroup,
  credentialed: boolean,
  fromPublishedFile: boolean,
  pathAndQuery: string,
): WeightedRoute["make"] {
  const request: SoakRequest = { route, group, credentialed, fromPublishedFile, pathAndQuery };
  return () => request;
}

const year = SAMPLE_PROFILE.eventsYear;
const series = encodeURIComponent(SAMPLE_PROFILE.observationsSeries);
/** A family of the package's own registry (data/registry/families.json), which the sample archive is ingested with. */
const INDICATOR = "consumer-prices-us";

/** Weights in percent of requests: half weather (where MET's failures show), half everything the index and registry serve. */
const ROUTES: readonly WeightedRoute[] = [
  { weight: 15, make: weatherRoute("public weather current", false, "current") },
  { weight: 10, make: weatherRoute("public weather forecast", false, "forecast") },
  { weight: 15, make: weatherRoute("credentialed weather current", true, "current") },
  { weight: 10, make: weatherRoute("credentialed weather forecast", true, "forecast") },
  {
    weight: 5,
    make: fixed(
      "credentialed events, a year",
      "economics",
      true,
      true,
      `/api/v1/economics/events?from=${year}-01-01&to=${year}-12-31&limit=100&tz=America/New_York`,
    ),
  },
  {
    weight: 5,
    make: fixed(
      "credentialed calendar, six months",
      "economics",
      true,
      true,
      `/api/v1/economics/calendar?from=${year}-01-01&to=${year}-06-30&tz=Europe/Berlin`,
    ),
  },
  {
    weight: 5,
    make: fixed(
      "credentialed series observations",
      "economics",
      true,
      true,
      `/api/v1/economics/series/${series}/observations`,
    ),
  },
  // A fixed window rather than the default one around today, whose answer changes when the run crosses midnight.
  {
    weight: 5,
    make: fixed(
      "public calendar, a month",
      "economics",
      false,
      true,
      `/api/public/v1/economics/calendar?from=${year}-10-01&to=${year}-10-31`,
    ),
  },
  { weight: 5, make: fixed("public releases", "economics", false, true, "/api/public/v1/economics/releases") },
  {
    weight: 5,
    make: fixed(
      "public observations",
      "economics",
      false,
      true,
      `/api/public/v1/economics/observations?series=${series}`,
    ),
  },
  { weight: 3, make: fixed("registry indicators", "registry", false, true, "/api/v1/economics/indicators") },
  { weight: 3, make: fixed("registry series", "registry", false, true, "/api/v1/economics/series") },
  {
    weight: 2,
    make: fixed("registry one indicator", "registry", false, true, `/api/v1/economics/indicators/${INDICATOR}`),
  },
  { weight: 6, make: fixed("public news", "news", false, true, "/api/public/v1/news/events") },
  { weight: 6, make: fixed("status", "status", false, true, "/api/public/v1/status") },
];
const TOTAL_WEIGHT = ROUTES.reduce((sum, route) => sum + route.weight, 0);

/** The next request of the mix, drawn with `random` (seeded by the caller, so the sequence repeats run to run). */
export function nextRequest(random: () => number): SoakRequest {
  let draw = random() * TOTAL_WEIGHT;
  for (const route of ROUTES) {
    draw -= route.weight;
    if (draw < 0) return route.make(random);
  }
  return ROUTES.at(-1)!.make(random);
}

/** One request per route answered from a published file: what the baseline is taken from before the load starts. */
export function publishedFileRoutes(): SoakRequest[] {
  const random = () => 0;
  return ROUTES.map((route) => route.make(random)).filter((request) => request.fromPublishedFile);
}
