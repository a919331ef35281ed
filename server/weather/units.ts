import { Decimal } from "decimal.js";

/**
 * The units every stored and metric value is in: the spec's `meta.canonicalUnits`. They are also the units MET
 * declares for the same quantities, and met-document.ts rejects a document that declares anything else, so no
 * value is ever relabelled without being converted.
 */
export const UNITS = {
  temperature: "celsius",
  windSpeed: "m/s",
  pressure: "hPa",
  precipitation: "mm",
} as const;

// Imperial conversions, defined once. They are computed in decimal arithmetic so that a value exactly halfway is
// really halfway (binary floats make 0.15 slightly less than it looks), and rounded half away from zero.
// Temperature and wind speed keep one decimal, the provider's own precision. Inches keep three decimals, because
// the provider's smallest step, 0.1 mm, is 0.004 in and two decimals would turn it into a made-up 0.00.

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
