import type { DailyRecord, WeatherReading } from "./model.ts";
import { celsiusToFahrenheit, metresPerSecondToMilesPerHour, millimetresToInches } from "./units.ts";

const convert = (value: number | null, conversion: (value: number) => number) =>
  value === null ? null : conversion(value);

/** The imperial fields of a reading; the credentialed route adds them beside the metric ones. */
export function imperialFields(reading: Pick<WeatherReading, "temperatureC" | "windSpeedMps" | "precipitationMm">) {
  return {
    temperatureF: convert(reading.temperatureC, celsiusToFahrenheit),
    windSpeedMph: convert(reading.windSpeedMps, metresPerSecondToMilesPerHour),
    precipitationIn: convert(reading.precipitationMm, millimetresToInches),
  };
}

export function dailyImperialFields(day: DailyRecord) {
  return {
    temperatureMinF: convert(day.temperatureMinC, celsiusToFahrenheit),
    temperatureMaxF: convert(day.temperatureMaxC, celsiusToFahrenheit),
    precipitationIn: convert(day.precipitationMm, millimetresToInches),
  };
}

/** The public route converts: metric fields are replaced by their imperial counterparts. */
export function toImperialReading<T extends WeatherReading>(reading: T) {
  const { temperatureC: _c, windSpeedMps: _mps, precipitationMm: _mm, ...rest } = reading;
  return { ...rest, ...imperialFields(reading) };
}

export function toImperialDay(day: DailyRecord) {
  const { temperatureMinC: _min, temperatureMaxC: _max, precipitationMm: _mm, ...rest } = day;
  return { ...rest, ...dailyImperialFields(day) };
}
