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

const measurement = () => nullable(num());
const condition = nullable(
  obj({ code: str(), thunder: bool(), dayPart: nullable(enumOf(["DAY", "NIGHT", "POLAR_TWILIGHT"])) }),
);
const units = enumOf(["metric", "imperial"]);

export const weatherLocationSchema = obj({ latitude: num(), longitude: num(), altitudeMetres: nullable(num()) });

const shared = {
  humidityPercent: measurement(),
  pressureHpa: measurement(),
  windDirectionDegrees: measurement(),
  cloudCoverPercent: measurement(),
  uvIndex: measurement(),
  condition,
};
const metric = { temperatureC: measurement(), windSpeedMps: measurement(), precipitationMm: measurement() };
const imperial = { temperatureF: measurement(), windSpeedMph: measurement(), precipitationIn: measurement() };
const imperialNames = Object.keys(imperial);

const provenance = {
  source: obj({ id: str(), name: str(), url: str() }),
  attribution: obj({ text: str(), required: bool(), licenseName: str(), licenseUrl: str() }),
};
const recordHead = {
  location: weatherLocationSchema,
  observedAt: dateTime(),
  units,
  providerModelUpdatedAt: dateTime(),
};

/** Either metric or imperial fields, never both: the public routes convert and rename. */
const eitherUnits = (head: Record<string, JsonSchema>): JsonSchema => ({
  anyOf: [obj({ ...head, ...shared, ...metric }), obj({ ...head, ...shared, ...imperial })],
});
/** Metric always, imperial fields beside them when asked for: the credentialed routes add. */
const metricPlusImperial = (head: Record<string, JsonSchema>): JsonSchema =>
  obj({ ...head, ...shared, ...metric, ...imperial }, imperialNames);

const dayHead = {
  date: date(),
  condition,
  derivation: enumOf(["SERVICE_DERIVED"]),
  transformation: arrayOf(str(), { contains: { const: "AGGREGATION" } }),
  partial: bool(),
  hoursCovered: int({ minimum: 0 }),
};
const dayMetric = { temperatureMinC: measurement(), temperatureMaxC: measurement(), precipitationMm: measurement() };
const dayImperial = { temperatureMinF: measurement(), temperatureMaxF: measurement(), precipitationIn: measurement() };

export const credentialedCurrentSchema = obj({ units, current: metricPlusImperial({ ...recordHead, ...provenance }) });

export const publicCurrentSchema = obj({ current: eitherUnits({ ...recordHead, ...provenance }) });

/** Stated on both forecast routes, so a client knows the days' zone even when it asked for `tz=auto`. */
const forecastZone = str({
  description:
    "IANA zone the daily records were assembled in: tz as given, UTC when absent, and for tz=auto the zone found for the point.",
  examples: ["Europe/Oslo", "Asia/Kolkata", "Etc/GMT+3"],
});

export const credentialedForecastSchema = obj({
  location: weatherLocationSchema,
  timeZone: forecastZone,
  hourly: arrayOf(metricPlusImperial({ startsAt: dateTime() })),
  daily: arrayOf(obj({ ...dayHead, ...dayMetric, ...dayImperial }, Object.keys(dayImperial))),
});

export const publicForecastSchema = obj({
  forecast: obj({
    location: weatherLocationSchema,
    timeZone: forecastZone,
    hours: arrayOf(eitherUnits({ startsAt: dateTime() })),
    days: arrayOf({ anyOf: [obj({ ...dayHead, ...dayMetric }), obj({ ...dayHead, ...dayImperial })] }),
  }),
});

export const placesSchema = obj({
  places: arrayOf(
    obj({
      name: str(),
      countryCode: str(),
      adminArea: nullable(str()),
      latitude: num(),
      longitude: num(),
      population: nullable(int()),
      timeZone: str({
        description: "IANA zone of the place's point, from an offline boundary lookup (coarse near zone borders).",
      }),
    }),
  ),
  attribution: nullable(obj({ text: str(), required: bool(), licenseName: str(), licenseUrl: str() })),
});
