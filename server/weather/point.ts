/** A forecast location as the credentialed weather routes accept it (WGS 84 degrees, metres). */
export interface WeatherPoint {
  lat: number;
  lon: number;
  /** Omitted, MET infers the altitude from its own terrain model. */
  altitude?: number;
}

/**
 * MET refuses more than four decimals (about 11 m); altitude in whole metres. Rounding via an integer and one division
 * gives the nearest double, so it prints as 59.9139, never 59.91390000000001; `+ 0` turns -0 into 0.
 */
export function roundPoint(point: WeatherPoint, decimals = 4): WeatherPoint {
  const scale = 10 ** decimals;
  const roundCoordinate = (degrees: number) => Math.round(degrees * scale) / scale + 0;
  const rounded: WeatherPoint = { lat: roundCoordinate(point.lat), lon: roundCoordinate(point.lon) };
  if (point.altitude !== undefined) rounded.altitude = Math.round(point.altitude) + 0;
  return rounded;
}

/** Cache key: points that round to the same request share one entry. */
export function pointKey(point: WeatherPoint): string {
  const rounded = roundPoint(point);
  return `${rounded.lat},${rounded.lon},${rounded.altitude ?? ""}`;
}
