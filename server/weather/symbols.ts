import type { Condition, ConditionCode, DayPart } from "./model.ts";

/**
 * MET Norway's 41 symbol bases (weathericons legend.csv; the schema's WeatherSymbol enum has 83 codes with suffixes).
 * A closed table rather than splitting strings, so a symbol MET adds later is UNKNOWN, not a plausible made-up code.
 * Thunder is a flag of its own. MET's two misspelled bases ("lightss...") are the only spellings it sends.
 */
const SYMBOL_BASES: Readonly<Record<string, { code: ConditionCode; thunder: boolean }>> = {
  clearsky: { code: "CLEAR_SKY", thunder: false },
  fair: { code: "FAIR", thunder: false },
  partlycloudy: { code: "PARTLY_CLOUDY", thunder: false },
  cloudy: { code: "CLOUDY", thunder: false },
  fog: { code: "FOG", thunder: false },

  lightrainshowers: { code: "LIGHT_RAIN_SHOWERS", thunder: false },
  rainshowers: { code: "RAIN_SHOWERS", thunder: false },
  heavyrainshowers: { code: "HEAVY_RAIN_SHOWERS", thunder: false },
  lightrainshowersandthunder: { code: "LIGHT_RAIN_SHOWERS", thunder: true },
  rainshowersandthunder: { code: "RAIN_SHOWERS", thunder: true },
  heavyrainshowersandthunder: { code: "HEAVY_RAIN_SHOWERS", thunder: true },

  lightsleetshowers: { code: "LIGHT_SLEET_SHOWERS", thunder: false },
  sleetshowers: { code: "SLEET_SHOWERS", thunder: false },
  heavysleetshowers: { code: "HEAVY_SLEET_SHOWERS", thunder: false },
  lightssleetshowersandthunder: { code: "LIGHT_SLEET_SHOWERS", thunder: true },
  sleetshowersandthunder: { code: "SLEET_SHOWERS", thunder: true },
  heavysleetshowersandthunder: { code: "HEAVY_SLEET_SHOWERS", thunder: true },

  lightsnowshowers: { code: "LIGHT_SNOW_SHOWERS", thunder: false },
  snowshowers: { code: "SNOW_SHOWERS", thunder: false },
  heavysnowshowers: { code: "HEAVY_SNOW_SHOWERS", thunder: false },
  lightssnowshowersandthunder: { code: "LIGHT_SNOW_SHOWERS", thunder: true },
  snowshowersandthunder: { code: "SNOW_SHOWERS", thunder: true },
  heavysnowshowersandthunder: { code: "HEAVY_SNOW_SHOWERS", thunder: true },

  lightrain: { code: "LIGHT_RAIN", thunder: false },
  rain: { code: "RAIN", thunder: false },
  heavyrain: { code: "HEAVY_RAIN", thunder: false },
  lightrainandthunder: { code: "LIGHT_RAIN", thunder: true },
  rainandthunder: { code: "RAIN", thunder: true },
  heavyrainandthunder: { code: "HEAVY_RAIN", thunder: true },

  lightsleet: { code: "LIGHT_SLEET", thunder: false },
  sleet: { code: "SLEET", thunder: false },
  heavysleet: { code: "HEAVY_SLEET", thunder: false },
  lightsleetandthunder: { code: "LIGHT_SLEET", thunder: true },
  sleetandthunder: { code: "SLEET", thunder: true },
  heavysleetandthunder: { code: "HEAVY_SLEET", thunder: true },

  lightsnow: { code: "LIGHT_SNOW", thunder: false },
  snow: { code: "SNOW", thunder: false },
  heavysnow: { code: "HEAVY_SNOW", thunder: false },
  lightsnowandthunder: { code: "LIGHT_SNOW", thunder: true },
  snowandthunder: { code: "SNOW", thunder: true },
  heavysnowandthunder: { code: "HEAVY_SNOW", thunder: true },
};

const DAY_PART_SUFFIXES: ReadonlyArray<readonly [suffix: string, dayPart: DayPart]> = [
  ["_day", "DAY"],
  ["_night", "NIGHT"],
  ["_polartwilight", "POLAR_TWILIGHT"],
];

/**
 * The condition a MET symbol code stands for; null without a symbol (none was forecast). A base without suffix has
 * dayPart null. An unknown base is UNKNOWN but keeps what MET documents for every code: the suffix and "andthunder".
 */
export function toCondition(symbolCode: string | null): Condition | null {
  if (symbolCode === null) return null;
  const [base, dayPart] = splitDayPart(symbolCode);
  const known = Object.hasOwn(SYMBOL_BASES, base) ? SYMBOL_BASES[base] : undefined;
  return { ...(known ?? { code: "UNKNOWN", thunder: base.includes("andthunder") }), dayPart };
}

function splitDayPart(symbolCode: string): [base: string, dayPart: DayPart | null] {
  for (const [suffix, dayPart] of DAY_PART_SUFFIXES) {
    if (symbolCode.endsWith(suffix)) return [symbolCode.slice(0, -suffix.length), dayPart];
  }
  return [symbolCode, null];
}
