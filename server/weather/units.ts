import { Decimal } from "decimal.js";

/** The spec's `meta.canonicalUnits`, also MET's: met-document.ts refuses a document declaring any other. */
export const UNITS = {
  temperature: "celsius",
  windSpeed: "m/s",
  pressure: "hPa",
  precipitation: "mm",
} as const;

// Imperial conversions in decimal arithmetic (so 0.15 is really halfway), rounded half away from zero. One decimal,
// MET's own precision; inches three, because MET's smallest step, 0.1 mm, is 0.004 in (two would make it 0.00).

const METRES_PER_MILE = 1609.344;
const SECONDS_PER_HOUR = 3600;
const MILLIMETRES_PER_INCH = 25.4;

function rounded(value: Decimal, decimals: number): number {
  return value.toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP).toNumber();
}

export function celsiusToFahrenheit(celsius: number): number {
  return rounded(new Decimal(celsius).times(9).dividedBy(5).plus(32), 1);
}

export function metresPerSecondToMilesPerHour(metresPerSecond: number): number {
  return rounded(new Decimal(metresPerSecond).times(SECONDS_PER_HOUR).dividedBy(METRES_PER_MILE), 1);
}

export function millimetresToInches(millimetres: number): number {
  return rounded(new Decimal(millimetres).dividedBy(MILLIMETRES_PER_INCH), 3);
}
