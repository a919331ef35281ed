import { COORDINATES, PAGE_LIMITS } from "../../schemas/limits.ts";
import { ApiError } from "../http/api-error.ts";
import { PublisherSet } from "../http/attribution-records.ts";
import { parseLimit } from "../http/params.ts";
import type { RouteHandler, RouteResult } from "../http/route-handler.ts";
import { StaticMeta } from "../http/route-handler.ts";
import type { CachedWeather, WeatherCache } from "../weather/cache.ts";
import { assembleDailyRecords } from "../weather/daily.ts";
import type { WeatherView } from "../weather/entry-lifecycle.ts";
import { parseForecastZone, parseLocation } from "../weather/location-params.ts";
import type { WeatherPoint } from "../weather/point.ts";
import { STANDIN_SOURCE } from "../weather/provenance.ts";
import { readPayload, readPayloadHead, type StoredPayload } from "../weather/stored-payload.ts";
import { dailyImperialFields, imperialFields, toImperialDay, toImperialReading } from "../weather/unit-variants.ts";
import { UNITS } from "../weather/units.ts";
import { WeatherUpstreamError } from "../weather/upstream-error.ts";

// Every weather answer is MET Norway's data, changed by the service: fields remapped, daily records derived, units converted.
const ATTRIBUTION_RECORDS = new PublisherSet().add("MET_NORWAY", true).records();

const PUBLIC_COORDINATE_PRECISION = `Coordinates rounded to ${COORDINATES.publicDecimals} decimal places (about 1.1 km); the point in the body is the point served.`;

// Answers built from the demo stand-in's documents name it in their attribution records too: still MET's data and
// licence, under the stand-in's source id, which says it is not real weather (provenance.ts).
const staticMetaFor = (attributionRecords: typeof ATTRIBUTION_RECORDS) => ({
  credentialed: new StaticMeta({ canonicalUnits: UNITS, attributionRecords }),
  public: new StaticMeta({
    canonicalUnits: UNITS,
    attributionRecords,
    coordinatePrecision: PUBLIC_COORDINATE_PRECISION,
  }),
});
const MET_STATIC_META = staticMetaFor(ATTRIBUTION_RECORDS);
const STANDIN_STATIC_META = staticMetaFor(
  ATTRIBUTION_RECORDS.map((record) => ({ ...record, sourceId: STANDIN_SOURCE.id })),
);
const staticMeta = (stored: StoredPayload) =>
  stored.sourceId === STANDIN_SOURCE.id ? STANDIN_STATIC_META : MET_STATIC_META;

/** Exactly the case-sensitive string `imperial` selects imperial; anything else is metric, never an error. */
const isImperial = (query: URLSearchParams) => query.get("units") === "imperial";

export function weatherHandlers(weather: WeatherCache<StoredPayload> | null): Record<string, RouteHandler> {
  /**
   * Runs `build` on the point's payload and what the lookup found: at once when the cache holds a fresh copy (the
   * common case, answered without a promise), else once the cache has asked MET or judged its failure.
   */
  const withPayload = (
    point: WeatherPoint,
    view: WeatherView,
    build: (result: CachedWeather<StoredPayload>) => RouteResult,
  ): RouteResult | Promise<RouteResult> => {
    if (!weather) throw new ApiError("SOURCE_DISABLED");
    const fresh = weather.peek(point, view);
    if (fresh) return build(fresh);
    return weather.get(point, view).then(build, upstreamFailure);
  };
  const freshness = (result: CachedWeather<StoredPayload>) => ({
    cached: result.cached,
    cacheAgeSeconds: result.cacheAgeSeconds,
    stale: result.stale,
    degraded: result.degraded,
    fetchedAt: result.fetchedAt,
  });
  /**
   * An answer from a fresh cached copy says the same, but for the request id and time, until its cache age moves on
   * a second, as long as the copy is still the point's fresh one: kept that long, so a polled point is not rendered
   * again. An answer from this request's own MET call, or a stale copy, is never kept (the next one says otherwise).
   */
  const keptWhileFresh = (result: CachedWeather<StoredPayload>, point: WeatherPoint, view: WeatherView) =>
    (weather && result.cached && !result.stale ? weather.keepingTerms(point, view, result) : undefined) ?? {};

  return {
    "v1.weather.current": ({ query }) => {
      const point = parseLocation(query, COORDINATES.credentialedDecimals, "WEATHER_LOCATION_INVALID");
      const units = isImperial(query) ? "imperial" : "metric";
      return withPayload(point, "current", (result) => {
        const payload = readPayloadHead(result.value);
        const current = {
          ...payload.current,
          units,
          ...(units === "imperial" ? imperialFields(payload.current) : {}),
        };
        return {
          data: { units, current },
          meta: freshness(result),
          staticMeta: staticMeta(result.value).credentialed,
          cacheOutcome: result.outcome,
          ...keptWhileFresh(result, point, "current"),
        };
      });
    },

    "v1.weather.forecast": ({ query }) => {
      const point = parseLocation(query, COORDINATES.credentialedDecimals, "WEATHER_LOCATION_INVALID");
      const zone = parseForecastZone(query.get("tz"), point);
      const limit = parseLimit(query.get("limit"), PAGE_LIMITS.credentialedForecastDays);
      return withPayload(point, "forecast", (result) => {
        const imperial = isImperial(query);
        const payload = readPayload(result.value);
        const hourly = payload.hours.map((hour) => (imperial ? { ...hour, ...imperialFields(hour) } : hour));
        const daily = assembleDailyRecords(payload, zone)
          .slice(0, limit)
          .map((day) => (imperial ? { ...day, ...dailyImperialFields(day) } : day));
        return {
          data: { location: requestedLocation(point), timeZone: zone, hourly, daily },
          meta: { ...freshness(result), dayCount: daily.length },
          staticMeta: staticMeta(result.value).credentialed,
          cacheOutcome: result.outcome,
          ...keptWhileFresh(result, point, "forecast"),
        };
      });
    },

    "public.weather.current": ({ query }) => {
      const point = parseLocation(query, COORDINATES.publicDecimals, "VALIDATION_FAILED");
      return withPayload(point, "current", (result) => {
        const imperial = isImperial(query);
        const record = { ...readPayloadHead(result.value).current, location: requestedLocation(point) };
        return {
          data: {
            current: imperial ? { ...toImperialReading(record), units: "imperial" } : { ...record, units: "metric" },
          },
          meta: freshness(result),
          staticMeta: staticMeta(result.value).public,
          cacheOutcome: result.outcome,
          ...keptWhileFresh(result, point, "current"),
        };
      });
    },

    "public.weather.forecast": ({ query }) => {
      const point = parseLocation(query, COORDINATES.publicDecimals, "VALIDATION_FAILED");
      const hourCount = parseLimit(query.get("hours"), PAGE_LIMITS.publicForecastHours, "hours");
      const dayCount = parseLimit(query.get("days"), PAGE_LIMITS.publicForecastDays, "days");
      const zone = parseForecastZone(query.get("tz"), point);
      return withPayload(point, "forecast", (result) => {
        const imperial = isImperial(query);
        const payload = readPayload(result.value);
        const hours = payload.hours.slice(0, hourCount).map((hour) => (imperial ? toImperialReading(hour) : hour));
        const days = assembleDailyRecords(payload, zone)
          .slice(0, dayCount)
          .map((day) => (imperial ? toImperialDay(day) : day));
        return {
          data: { forecast: { location: requestedLocation(point), timeZone: zone, hours, days } },
          meta: freshness(result),
          staticMeta: staticMeta(result.value).public,
          cacheOutcome: result.outcome,
          ...keptWhileFresh(result, point, "forecast"),
        };
      });
    },
  };
}

function upstreamFailure(error: unknown): never {
  if (!(error instanceof WeatherUpstreamError)) throw error;
  const retryAfterSeconds = error.retryAfterMs === null ? undefined : Math.max(1, Math.ceil(error.retryAfterMs / 1000));
  throw new ApiError(error.code, undefined, { retryAfterSeconds });
}

/** The point as served (rounded), in the record's location shape. */
function requestedLocation(point: WeatherPoint) {
  return { latitude: point.lat, longitude: point.lon, altitudeMetres: point.altitude ?? null };
}
