import type { ErrorCode } from "../../schemas/errors.ts";
import { COORDINATES } from "../../schemas/limits.ts";
import { ApiError } from "../http/api-error.ts";
import { givenValue, parseZone } from "../http/params.ts";
import { zoneOfPoint } from "../places/point-zone.ts";
import { roundPoint, type WeatherPoint } from "./point.ts";

/** A decimal, with an exponent if any (`String(1e-7)` is "1e-7"); not hex, `Infinity` or other forms Number reads. */
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** `lat`, `lon` and optional `altitude`, rounded to `decimals` and whole metres; a bad value gives `errorCode`. */
export function parseLocation(query: URLSearchParams, decimals: number, errorCode: ErrorCode): WeatherPoint {
  const read = (name: string, range: { min: number; max: number }, required: boolean): number | undefined => {
    const raw = query.get(name)?.trim() ?? "";
    if (raw === "" && !required) return undefined;
    const value = NUMBER.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isFinite(value) || value < range.min || value > range.max) {
      throw new ApiError(errorCode, `${name} must be a number from ${range.min} to ${range.max}.`);
    }
    return value;
  };
  const lat = read("lat", COORDINATES.latitude, true)!;
  const lon = read("lon", COORDINATES.longitude, true)!;
  return roundPoint({ lat, lon, altitude: read("altitude", COORDINATES.altitude, false) }, decimals);
}

/**
 * The zone a forecast's days are assembled in: for `tz=auto` (Open-Meteo's `timezone=auto`, in any case) the zone of
 * the served (rounded) point, so requests that share a cache entry share its zone; otherwise `tz` by every route's rule
 * (UTC when absent, an unknown zone is VALIDATION_FAILED).
 */
export function parseForecastZone(raw: string | null, point: WeatherPoint): string {
  if (givenValue(raw)?.toLowerCase() === "auto") return zoneOfPoint(point.lat, point.lon);
  return parseZone(raw);
}
