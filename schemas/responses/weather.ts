import { arrayOf, bool, date, dateTime, enumOf, int, nullable, num, obj, str } from "../json-schema.ts";

const measurement = () => nullable(num());

const condition = nullable(obj({ code: str(), thunder: bool(), dayPart: nullable(enumOf(["DAY", "NIGHT", "POLAR_TWILIGHT"])) }));

export const weatherLocationSchema = obj({ latitude: num(), longitude: num(), altitudeMetres: nullable(num()) });

const metricReading = {
  temperatureC: measurement(),
  windSpeedMps: measurement(),
  humidityPercent: measurement(),
  pressureHpa: measurement(),
  windDirectionDegrees: measurement(),
  cloudCoverPercent: measurement(),
  uvIndex: measurement(),
  precipitationMm: measurement(),
  condition,
};
const imperialReading = {
  ...Object.fromEntries(Object.entries(metricReading).filter(([key]) => key !== "temperatureC" && key !== "windSpeedMps" && key !== "precipitationMm")),
  temperatureF: measurement(),
  windSpeedMph: measurement(),
  precipitationIn: measurement(),
};
const imperialExtras = { temperatureF: measurement(), windSpeedMph: measurement(), precipitationIn: measurement() };

const provenance = {
  source: obj({ id: str(), name: str(), url: str() }),
  attribution: obj({ text: str(), required: bool(), licenseName: str(), licenseUrl: str() }),
};

const recordHead = {
  location: weatherLocationSchema,
  observedAt: dateTime(),
  units: enumOf(["metric", "imperial"]),
  providerModelUpdatedAt: dateTime(),
};

/** Credentialed: metric fields always; imperial adds its fields beside them. */
export const credentialedCurrentSchema = obj({
  units: enumOf(["metric", "imperial"]),
  current: obj({ ...recordHead, ...metricReading, ...imperialExtras, ...provenance }, Object.keys(imperialExtras)),
});

/** Public: one variant, converted and renamed when imperial is chosen. */
export const publicCurrentSchema = obj({
  current: { anyOf: [obj({ ...recordHead, ...metricReading, ...provenance }), obj({ ...recordHead, ...imperialReading, ...provenance })] },
});

const hourlyEntry = obj({ startsAt: dateTime(), ...metricReading, ...imperialExtras }, Object.keys(imperialExtras));

const dailyRecord = obj({
  date: date(),
  temperatureMinC: measurement(),
  temperatureMaxC: measurement(),
  precipitationMm: measurement(),
  condition,
  derivation: enumOf(["SERVICE_DERIVED"]),
  transformation: arrayOf(str(), { contains: { const: "AGGREGATION" } }),
  partial: bool(),
  hoursCovered: int({ minimum: 0 }),
}, ["temperatureMinF", "temperatureMaxF", "precipitationIn"]);

export const credentialedForecastSchema = obj({
  location: weatherLocationSchema,
  hourly: arrayOf(hourlyEntry),
  daily: arrayOf(dailyRecord),
});

export const publicForecastSchema = obj({
  forecast: obj({ location: weatherLocationSchema, hours: arrayOf(hourlyEntry), days: arrayOf(dailyRecord) }),
});

export const placesSchema = obj({
  places: arrayOf(obj({
    name: str(),
    countryCode: str(),
    adminArea: nullable(str()),
    latitude: num(),
    longitude: num(),
    population: nullable(int()),
    timeZone: nullable(str()),
  })),
  attribution: nullable(obj({ text: str(), required: bool(), licenseName: str(), licenseUrl: str() })),
});
