/** A measurement the provider did not send is null: never absent, never a made-up zero (spec general rule 1). */

/** Condition codes: MET's symbol bases in words, with thunder and the part of day split off (see symbols.ts). */
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
export type ConditionCode = (typeof CONDITION_CODES)[number];

export type DayPart = "DAY" | "NIGHT" | "POLAR_TWILIGHT";

export interface Condition {
  code: ConditionCode;
  thunder: boolean;
  /** Null for conditions the provider does not draw differently by day and night (cloudy, rain, snow, fog ...). */
  dayPart: DayPart | null;
}

export interface WeatherLocation {
  latitude: number;
  longitude: number;
  /** The ground height the provider used; null when it did not state one. */
  altitudeMetres: number | null;
}

/** Model output for one point in time, in canonical metric units (units.ts). */
export interface WeatherReading {
  temperatureC: number | null;
  windSpeedMps: number | null;
  humidityPercent: number | null;
  pressureHpa: number | null;
  windDirectionDegrees: number | null;
  cloudCoverPercent: number | null;
  uvIndex: number | null;
  /** Precipitation over the hour that starts at the reading's time; null outside the provider's hourly range. */
  precipitationMm: number | null;
  /** Null when the provider gave no symbol for any period starting at the reading's time. */
  condition: Condition | null;
}

export interface WeatherSource {
  id: string;
  name: string;
  url: string;
}

export interface WeatherAttribution {
  text: string;
  required: true;
  licenseName: string;
  licenseUrl: string;
}

export interface CurrentRecord extends WeatherReading {
  location: WeatherLocation;
  /** Time of the first entry of the provider series: not a measurement time, and it can lag the clock by hours. */
  observedAt: string;
  /** The provider's model run time. */
  providerModelUpdatedAt: string;
  source: WeatherSource;
  attribution: WeatherAttribution;
}

export interface HourlyEntry extends WeatherReading {
  /** UTC start of the hour. */
  startsAt: string;
}

/** A provider period of 1 or 6 hours from startsAt. Periods overlap: never add them up (daily.ts picks a cover). */
export interface ForecastWindow {
  startsAt: string;
  durationHours: 1 | 6;
  precipitationMm: number | null;
  /** Only 6-hour periods of the provider's complete document carry a minimum and maximum. */
  temperatureMinC: number | null;
  temperatureMaxC: number | null;
  condition: Condition | null;
}

/** The instant air temperature at one provider step, hourly and 6-hourly alike. */
export interface InstantTemperature {
  at: string;
  temperatureC: number | null;
}

/** What the cache keeps for one location: everything both weather routes answer from. */
export interface WeatherPayload {
  location: WeatherLocation;
  providerModelUpdatedAt: string;
  current: CurrentRecord;
  /** The provider's hourly range only (steps that start a 1-hour period), in time order. */
  hours: HourlyEntry[];
  /** Every 1-hour and 6-hour period the provider published, in time order, for daily aggregation. */
  windows: ForecastWindow[];
  /** Every step's instant temperature, in time order, for daily minimum and maximum beyond the hourly range. */
  instantTemperatures: InstantTemperature[];
}

export type DailyTransformation = "AGGREGATION" | "SYMBOL_MAPPING";

/** One local calendar day assembled by the service; the provider publishes no day record. */
export interface DailyRecord {
  /** YYYY-MM-DD in the zone the days were assembled in. */
  date: string;
  temperatureMinC: number | null;
  temperatureMaxC: number | null;
  precipitationMm: number | null;
  condition: Condition | null;
  derivation: "SERVICE_DERIVED";
  transformation: DailyTransformation[];
  /** True when the provider's periods cover less than the whole local day (23, 24 or 25 hours). */
  partial: boolean;
  /** Whole hours of the local day covered by the provider's periods. */
  hoursCovered: number;
}
