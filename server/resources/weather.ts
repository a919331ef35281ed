import { COORDINATES, PAGE_LIMITS } from "../../schemas/limits.ts";
import { ApiError } from "../http/api-error.ts";
import { PublisherSet } from "../http/attribution-records.ts";
import { parseLimit } from "../http/params.ts";
import type { RouteHandlers, RouteResult } from "../http/route-handler.ts";
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

// MET Norway's data, changed by the service: fields remapped, daily records derived, units converted.
const ATTRIBUTION_RECORDS = new PublisherSet().add("MET_NORWAY", true).records();

const PUBLIC_COORDINATE_PRECISION = `Coordinates rounded to ${COORDINATES.publicDecimals} decimal places (about 1.1 km); the point in the body is the point served.`;

// Answers from the demo stand-in's documents carry its source id, which says it is not real weather (provenance.ts).
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

export function weatherHandlers(weather: WeatherCache<StoredPayload> | null): RouteHandlers {
  /** `build`'s answer from the point's payload: at once from a fresh cached copy (no promise), else after MET's. */
  const answer = <Data extends object>(
    point: WeatherPoint,
    view: WeatherView,
    access: "credentialed" | "public",
    build: (payload: StoredPayload) => { data: Data; meta?: { dayCount: number } },
  ): RouteResult<Data> | Promise<RouteResult<Data>> => {
    if (!weather) throw new ApiError("SOURCE_DISABLED");
    const answerOf = (result: CachedWeather<StoredPayload>): RouteResult<Data> => {
      const { data, meta } = build(result.value);
      return {
        data,
        meta: { ...freshness(result), ...meta },
        staticMeta: staticMeta(result.value)[access],
        cacheOutcome: result.outcome,
        // Kept until its cache age moves on a second, while the copy is still the point's fresh one (a polled point
        // is not rendered again); an answer whose payload this request's MET call replaced, or a stale copy, never is.
        ...((result.cached && !result.stale ? weather.keepingTerms(point, view, result) : undefined) ?? {}),
      };
    };
    const fresh = weather.peek(point, view);
    return fresh ? answerOf(fresh) : weather.get(point, view).then(answerOf, upstreamFailure);
  };

  return {
    "v1.weather.current": ({ query }) => {
      const point = parseLocation(query, COORDINATES.credentialedDecimals, "WEATHER_LOCATION_INVALID");
      const units = isImperial(query) ? "imperial" : "metric";
      return answer(point, "current", "credentialed", (stored) => {
        const payload = readPayloadHead(stored);
        const current = { ...payload.current, units, ...(units === "imperial" ? imperialFields(payload.current) : {}) };
        return { data: { units, current } };
      });
    },

    "v1.weather.forecast": ({ query }) => {
      const point = parseLocation(query, COORDINATES.credentialedDecimals, "WEATHER_LOCATION_INVALID");
      const zone = parseForecastZone(query.get("tz"), point);
      const limit = parseLimit(query.get("limit"), PAGE_LIMITS.credentialedForecastDays);
      return answer(point, "forecast", "credentialed", (stored) => {
        const imperial = isImperial(query);
        const payload = readPayload(stored);
        const hourly = payload.hours.map((hour) => (imperial ? { ...hour, ...imperialFields(hour) } : hour));
        const daily = assembleDailyRecords(payload, zone)
          .slice(0, limit)
          .map((day) => (imperial ? { ...day, ...dailyImperialFields(day) } : day));
        return {
          data: { location: requestedLocation(point), timeZone: zone, hourly, daily },
          meta: { dayCount: daily.length },
        };
      });
    },

    "public.weather.current": ({ query }) => {
      const point = parseLocation(query, COORDINATES.publicDecimals, "VALIDATION_FAILED");
      return answer(point, "current", "public", (stored) => {
        const record = { ...readPayloadHead(stored).current, location: requestedLocation(point) };
        const current = isImperial(query)
          ? { ...toImperialReading(record), units: "imperial" }
          : { ...record, units: "metric" };
        return { data: { current } };
      });
    },

    "public.weather.forecast": ({ query }) => {
      const point = parseLocation(query, COORDINATES.publicDecimals, "VALIDATION_FAILED");
      const hourCount = parseLimit(query.get("hours"), PAGE_LIMITS.publicForecastHours, "hours");
      const dayCount = parseLimit(query.get("days"), PAGE_LIMITS.publicForecastDays, "days");
      const zone = parseForecastZone(query.get("tz"), point);
      return answer(point, "forecast", "public", (stored) => {
        const imperial = isImperial(query);
        const payload = readPayload(stored);
        const hours = payload.hours.slice(0, hourCount).map((hour) => (imperial ? toImperialReading(hour) : hour));
        const days = assembleDailyRecords(payload, zone)
          .slice(0, dayCount)
          .map((day) => (imperial ? toImperialDay(day) : day));
        return { data: { forecast: { location: requestedLocation(point), timeZone: zone, hours, days } } };
      });
    },
  };
}

function freshness(result: CachedWeather<StoredPayload>) {
  const { cached, cacheAgeSeconds, stale, degraded, fetchedAt } = result;
  return { cached, cacheAgeSeconds, stale, degraded, fetchedAt };
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
