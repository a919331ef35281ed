import { COMMON_ERROR_CODES, type ErrorCode } from "../errors.ts";
import { str } from "../json-schema.ts";
import { COORDINATES, PAGE_LIMITS, PLACES_MIN_QUERY_LENGTH, PUBLIC_CACHE_SECONDS } from "../limits.ts";
import {
  credentialedCurrentSchema,
  credentialedForecastSchema,
  placesSchema,
  publicCurrentSchema,
  publicForecastSchema,
} from "../responses/weather.ts";
import { DAILY_RULES } from "../weather-rules.ts";
import { coordinateParameters, forecastTzParameter, limitParameter, unitsParameter } from "./parameters.ts";
import type { RouteSpec } from "./route-spec.ts";

const DAILY_DESCRIPTION = `Daily records are assembled by the service (derivation SERVICE_DERIVED) from the provider's sub-daily periods. ${Object.values(DAILY_RULES).join(" ")}`;

const UPSTREAM_CODES: ErrorCode[] = [
  "UPSTREAM_UNAVAILABLE",
  "UPSTREAM_INVALID_PAYLOAD",
  "UPSTREAM_PAYLOAD_TOO_LARGE",
  "UPSTREAM_TIMEOUT",
];
const credentialedCodes: ErrorCode[] = [
  ...COMMON_ERROR_CODES,
  "VALIDATION_FAILED",
  "WEATHER_LOCATION_INVALID",
  "SOURCE_DISABLED",
  ...UPSTREAM_CODES,
];
const publicCodes: ErrorCode[] = [...COMMON_ERROR_CODES, "VALIDATION_FAILED", "SOURCE_DISABLED", ...UPSTREAM_CODES];
const weatherMeta = ["canonicalUnits", "fetchedAt"] as const;

const credentialed = {
  method: "GET",
  tag: "weather",
  access: "ECOSYSTEM_INTERNAL",
  scope: "weather:read",
  requiresDurableStorage: false,
  publicCacheSeconds: null,
  errorCodes: credentialedCodes,
} as const;
const publicWeather = {
  method: "GET",
  tag: "weather",
  access: "PUBLIC",
  scope: null,
  requiresDurableStorage: false,
  errorCodes: publicCodes,
} as const;

export const weatherRoutes = [
  {
    ...credentialed,
    name: "v1.weather.current",
    path: "/api/v1/weather/current",
    summary: "Current conditions for a point (first entry of the provider series)",
    description:
      "Model output for a point, not a station observation. uvIndex is the provider's clear-sky UV index (an upper bound assuming no cloud).",
    ignoredParameters: [],
    parameters: [...coordinateParameters(COORDINATES.credentialedDecimals, "WEATHER_LOCATION_INVALID"), unitsParameter],
    dataSchema: credentialedCurrentSchema,
    metaFields: [...weatherMeta],
  },
  {
    ...credentialed,
    name: "v1.weather.forecast",
    path: "/api/v1/weather/forecast",
    summary: "Hourly entries and service-derived daily records for a point",
    description: DAILY_DESCRIPTION,
    ignoredParameters: ["days"],
    parameters: [
      ...coordinateParameters(COORDINATES.credentialedDecimals, "WEATHER_LOCATION_INVALID"),
      forecastTzParameter(
        "IANA zone deciding day boundaries of data.daily, default UTC. Not part of the cache key.",
        "data.timeZone",
      ),
      limitParameter(PAGE_LIMITS.credentialedForecastDays, "Number of daily records (truncates data.daily only)"),
      {
        name: "days",
        in: "query",
        required: false,
        description: "Accepted and ignored.",
        schema: str({ examples: ["3"] }),
      },
      unitsParameter,
    ],
    dataSchema: credentialedForecastSchema,
    metaFields: [...weatherMeta, "dayCount"],
  },
  {
    ...publicWeather,
    name: "public.weather.current",
    path: "/api/public/v1/weather/current",
    summary: "Current conditions for a point rounded to 2 decimals",
    publicCacheSeconds: PUBLIC_CACHE_SECONDS.weatherCurrent,
    ignoredParameters: [],
    parameters: [...coordinateParameters(COORDINATES.publicDecimals, "VALIDATION_FAILED"), unitsParameter],
    dataSchema: publicCurrentSchema,
    metaFields: [...weatherMeta, "coordinatePrecision"],
  },
  {
    ...publicWeather,
    name: "public.weather.forecast",
    path: "/api/public/v1/weather/forecast",
    summary: "Forecast hours and service-derived days for a point rounded to 2 decimals",
    description: DAILY_DESCRIPTION,
    publicCacheSeconds: PUBLIC_CACHE_SECONDS.weatherForecast,
    ignoredParameters: [],
    parameters: [
      ...coordinateParameters(COORDINATES.publicDecimals, "VALIDATION_FAILED"),
      limitParameter(PAGE_LIMITS.publicForecastHours, "Hourly entries", "hours"),
      limitParameter(PAGE_LIMITS.publicForecastDays, "Daily records (the provider decides the real horizon)", "days"),
      forecastTzParameter(
        "IANA zone in which daily records are assembled, default UTC. First and last days can be partial.",
        "data.forecast.timeZone",
      ),
      unitsParameter,
    ],
    dataSchema: publicForecastSchema,
    metaFields: [...weatherMeta, "coordinatePrecision"],
  },
  {
    ...publicWeather,
    name: "public.weather.places",
    path: "/api/public/v1/weather/places",
    summary: "Place search by name (GeoNames gazetteer), ranked by population",
    description:
      "Each place carries the IANA zone of its point. The service builds the place index when it starts without one; with no place index on the deployment (its build failed) the answer is 200 with an empty list. GeoNames is credited (data.attribution, meta.attributionRecords) when places are served; an empty list carries no attribution.",
    errorCodes: [...COMMON_ERROR_CODES, "VALIDATION_FAILED"],
    publicCacheSeconds: PUBLIC_CACHE_SECONDS.places,
    ignoredParameters: [],
    parameters: [
      {
        name: "q",
        in: "query",
        required: true,
        description: `Words of the name, each matched as a word prefix and in any order (sao pau finds São Paulo), at least ${PLACES_MIN_QUERY_LENGTH} characters; accent- and case-insensitive.`,
        schema: str({ minLength: PLACES_MIN_QUERY_LENGTH, examples: ["Oslo"] }),
      },
      limitParameter(PAGE_LIMITS.places),
    ],
    dataSchema: placesSchema,
    metaFields: [],
  },
] as const satisfies readonly RouteSpec[];
