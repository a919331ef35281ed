import {
  arrayOf,
  bool,
  date,
  dateTime,
  enumOf,
  int,
  type JsonSchema,
  nullable,
  num,
  obj,
  str,
} from "../json-schema.ts";

/**
 * Condition codes: MET's symbol bases in words, with thunder and the part of day split off (server/weather/symbols.ts).
 */
export const CONDITION_CODES = [
  "CLEAR_SKY",
  "FAIR",
  "PARTLY_CLOUDY",
  "CLOUDY",
  "FOG",
  "LIGHT_RAIN",
  "RAIN",
  "HEAVY_RAIN",
  "LIGHT_RAIN_SHOWERS",
  "RAIN_SHOWERS",
  "HEAVY_RAIN_SHOWERS",
  "LIGHT_SLEET",
  "SLEET",
  "HEAVY_SLEET",
  "LIGHT_SLEET_SHOWERS",
  "SLEET_SHOWERS",
  "HEAVY_SLEET_SHOWERS",
  "LIGHT_SNOW",
  "SNOW",
  "HEAVY_SNOW",
  "LIGHT_SNOW_SHOWERS",
  "SNOW_SHOWERS",
  "HEAVY_SNOW_SHOWERS",
  // A symbol the provider sent that is not in its published list: passed on as such rather than guessed at.
  "UNKNOWN",
] as const;

/** A measurement the provider did not send is null: never absent, never a made-up zero (spec general rule 1). */
const measurement = () => nullable(num());
export const conditionSchema = obj({
  // The contract leaves the code an open string, so clients take codes added later; the service sends CONDITION_CODES.
  code: str(),
  thunder: bool(),
  /** Null for conditions the provider does not draw differently by day and night (cloudy, rain, snow, fog ...). */
  dayPart: nullable(enumOf(["DAY", "NIGHT", "POLAR_TWILIGHT"])),
});
const condition = nullable(conditionSchema);
const units = enumOf(["metric", "imperial"]);

export const weatherLocationSchema = obj({
  latitude: num(),
  longitude: num(),
  /** The ground height the provider used; null when it did not state one. */
  altitudeMetres: nullable(num()),
});

const shared = {
  humidityPercent: measurement(),
  pressureHpa: measurement(),
  windDirectionDegrees: measurement(),
  cloudCoverPercent: measurement(),
  uvIndex: measurement(),
  /** Null when the provider gave no symbol for any period starting at the reading's time. */
  condition,
};
const metric = {
  temperatureC: measurement(),
  windSpeedMps: measurement(),
  /** Precipitation over the hour that starts at the reading's time; null outside the provider's hourly range. */
  precipitationMm: measurement(),
};
/** Model output for one point in time, in canonical metric units (server/weather/units.ts). */
export const metricReadingFields = { ...shared, ...metric };
const imperial = { temperatureF: measurement(), windSpeedMph: measurement(), precipitationIn: measurement() };
const imperialNames = Object.keys(imperial);

export const provenanceFields = {
  source: obj({ id: str(), name: str(), url: str() }),
  attribution: obj({ text: str(), required: bool(), licenseName: str(), licenseUrl: str() }),
};
export const recordHeadFields = {
  location: weatherLocationSchema,
  /** Time of the first entry of the provider series: not a measurement time, and it can lag the clock by hours. */
  observedAt: dateTime(),
  units,
  /** The provider's model run time. */
  providerModelUpdatedAt: dateTime(),
};

/** Either metric or imperial fields, never both: the public routes convert and rename. */
const eitherUnits = (head: Record<string, JsonSchema>): JsonSchema => ({
  anyOf: [obj({ ...head, ...shared, ...metric }), obj({ ...head, ...shared, ...imperial })],
});
/** Metric always, imperial fields beside them when asked for: the credentialed routes add. */
const metricPlusImperial = (head: Record<string, JsonSchema>): JsonSchema =>
  obj({ ...head, ...shared, ...metric, ...imperial }, imperialNames);

/** UTC start of the hour. */
export const hourHeadFields = { startsAt: dateTime() };

/** One local calendar day assembled by the service; the provider publishes no day record. */
const dayHead = {
  /** YYYY-MM-DD in the zone the days were assembled in. */
  date: date(),
  condition,
  derivation: enumOf(["SERVICE_DERIVED"]),
  transformation: arrayOf(str(), { contains: { const: "AGGREGATION" } }),
  /** True when the provider's periods cover less than the whole local day (23, 24 or 25 hours). */
  partial: bool(),
  /** Whole hours of the local day covered by the provider's periods. */
  hoursCovered: int({ minimum: 0 }),
};
const dayMetric = { temperatureMinC: measurement(), temperatureMaxC: measurement(), precipitationMm: measurement() };
export const metricDayFields = { ...dayHead, ...dayMetric };
const dayImperial = { temperatureMinF: measurement(), temperatureMaxF: measurement(), precipitationIn: measurement() };

export const credentialedCurrentSchema = obj({
  units,
  current: metricPlusImperial({ ...recordHeadFields, ...provenanceFields }),
});

export const publicCurrentSchema = obj({ current: eitherUnits({ ...recordHeadFields, ...provenanceFields }) });

/** Stated on both forecast routes, so a client knows the days' zone even when it asked for `tz=auto`. */
const forecastZone = str({
  description:
    "IANA zone the daily records were assembled in: tz as given, UTC when absent, and for tz=auto the zone found for the point.",
  examples: ["Europe/Oslo", "Asia/Kolkata", "Etc/GMT+3"],
});

export const credentialedForecastSchema = obj({
  location: weatherLocationSchema,
  timeZone: forecastZone,
  hourly: arrayOf(metricPlusImperial(hourHeadFields)),
  daily: arrayOf(obj({ ...dayHead, ...dayMetric, ...dayImperial }, Object.keys(dayImperial))),
});

export const publicForecastSchema = obj({
  forecast: obj({
    location: weatherLocationSchema,
    timeZone: forecastZone,
    hours: arrayOf(eitherUnits(hourHeadFields)),
    days: arrayOf({ anyOf: [obj({ ...dayHead, ...dayMetric }), obj({ ...dayHead, ...dayImperial })] }),
  }),
});

export const placeSchema = obj({
  name: str(),
  countryCode: str(),
  /** The GeoNames admin1 code (a US state abbreviation, elsewhere often a number); null when GeoNames has none. */
  adminArea: nullable(str()),
  latitude: num(),
  longitude: num(),
  /** Null when GeoNames records no population (0), rather than a population of zero. */
  population: nullable(int()),
  timeZone: str({
    description: "IANA zone of the place's point, from an offline boundary lookup (coarse near zone borders).",
  }),
});

export const placesSchema = obj({
  places: arrayOf(placeSchema),
  attribution: nullable(obj({ text: str(), required: bool(), licenseName: str(), licenseUrl: str() })),
});
