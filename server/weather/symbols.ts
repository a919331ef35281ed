import type { Condition, ConditionCode, DayPart } from "./model.ts";

/**
 * MET Norway's 41 symbol bases (weathericons legend.csv; the schema's WeatherSymbol enum has 83 codes with suffixes).
 * A closed table rather than splitting strings, so a symbol MET adds later is UNKNOWN, not a plausible made-up code.
 * Thunder is a flag of its own, set by "andthunder" in the base. MET's two misspelled bases ("lightss...") are the only
 * spellings it sends.
 */
const SYMBOL_BASES: Readonly<Record<string, ConditionCode>> = {
  clearsky: "CLEAR_SKY",
  fair: "FAIR",
  partlycloudy: "PARTLY_CLOUDY",
  cloudy: "CLOUDY",
  fog: "FOG",

  lightrainshowers: "LIGHT_RAIN_SHOWERS",
  rainshowers: "RAIN_SHOWERS",
  heavyrainshowers: "HEAVY_RAIN_SHOWERS",
  lightrainshowersandthunder: "LIGHT_RAIN_SHOWERS",
  rainshowersandthunder: "RAIN_SHOWERS",
  heavyrainshowersandthunder: "HEAVY_RAIN_SHOWERS",

  lightsleetshowers: "LIGHT_SLEET_SHOWERS",
  sleetshowers: "SLEET_SHOWERS",
  heavysleetshowers: "HEAVY_SLEET_SHOWERS",
  lightssleetshowersandthunder: "LIGHT_SLEET_SHOWERS",
  sleetshowersandthunder: "SLEET_SHOWERS",
  heavysleetshowersandthunder: "HEAVY_SLEET_SHOWERS",

  lightsnowshowers: "LIGHT_SNOW_SHOWERS",
  snowshowers: "SNOW_SHOWERS",
  heavysnowshowers: "HEAVY_SNOW_SHOWERS",
  lightssnowshowersandthunder: "LIGHT_SNOW_SHOWERS",
  snowshowersandthunder: "SNOW_SHOWERS",
  heavysnowshowersandthunder: "HEAVY_SNOW_SHOWERS",

  lightrain: "LIGHT_RAIN",
  rain: "RAIN",
  heavyrain: "HEAVY_RAIN",
  lightrainandthunder: "LIGHT_RAIN",
  rainandthunder: "RAIN",
  heavyrainandthunder: "HEAVY_RAIN",

  lightsleet: "LIGHT_SLEET",
  sleet: "SLEET",
  heavysleet: "HEAVY_SLEET",
  lightsleetandthunder: "LIGHT_SLEET",
  sleetandthunder: "SLEET",
  heavysleetandthunder: "HEAVY_SLEET",

  lightsnow: "LIGHT_SNOW",
  snow: "SNOW",
  heavysnow: "HEAVY_SNOW",
  lightsnowandthunder: "LIGHT_SNOW",
  snowandthunder: "SNOW",
  heavysnowandthunder: "HEAVY_SNOW",
};

const DAY_PARTS: Readonly<Record<string, DayPart>> = { _day: "DAY", _night: "NIGHT", _polartwilight: "POLAR_TWILIGHT" };
const DAY_PART_SUFFIXES = Object.keys(DAY_PARTS);

/**
 * The condition a MET symbol code stands for; null without a symbol (none was forecast). A base without suffix has
 * dayPart null. An unknown base is UNKNOWN but keeps what MET documents for every code: the suffix and "andthunder".
 */
export function toCondition(symbolCode: string | null): Condition | null {
  if (symbolCode === null) return null;
  const suffix = DAY_PART_SUFFIXES.find((part) => symbolCode.endsWith(part));
  const base = suffix ? symbolCode.slice(0, -suffix.length) : symbolCode;
  const code = Object.hasOwn(SYMBOL_BASES, base) ? SYMBOL_BASES[base]! : "UNKNOWN";
  return { code, thunder: base.includes("andthunder"), dayPart: suffix ? DAY_PARTS[suffix]! : null };
}
