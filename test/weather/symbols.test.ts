import { describe, expect, it } from "vitest";
import { CONDITION_CODES } from "../../schemas/responses/weather.ts";
import { toCondition } from "../../server/weather/symbols.ts";

// MET's published list (weathericons legend.csv, research note section 3), typed out here independently of the
// service's table: 21 bases drawn by day, night and polar twilight, and 20 without a sun or moon.
const BASES_WITH_DAY_PARTS = [
  "clearsky",
  "fair",
  "partlycloudy",
  "lightrainshowers",
  "rainshowers",
  "heavyrainshowers",
  "lightrainshowersandthunder",
  "rainshowersandthunder",
  "heavyrainshowersandthunder",
  "lightsleetshowers",
  "sleetshowers",
  "heavysleetshowers",
  "lightssleetshowersandthunder",
  "sleetshowersandthunder",
  "heavysleetshowersandthunder",
  "lightsnowshowers",
  "snowshowers",
  "heavysnowshowers",
  "lightssnowshowersandthunder",
  "snowshowersandthunder",
  "heavysnowshowersandthunder",
];
const BASES_WITHOUT_DAY_PARTS = [
  "cloudy",
  "fog",
  "lightrain",
  "rain",
  "heavyrain",
  "lightrainandthunder",
  "rainandthunder",
  "heavyrainandthunder",
  "lightsleet",
  "sleet",
  "heavysleet",
  "lightsleetandthunder",
  "sleetandthunder",
  "heavysleetandthunder",
  "lightsnow",
  "snow",
  "heavysnow",
  "lightsnowandthunder",
  "snowandthunder",
  "heavysnowandthunder",
];
const MET_SYMBOL_CODES = [
  ...BASES_WITH_DAY_PARTS.flatMap((base) => [`${base}_day`, `${base}_night`, `${base}_polartwilight`]),
  ...BASES_WITHOUT_DAY_PARTS,
];

describe("toCondition", () => {
  it.each([
    ["fair_day", { code: "FAIR", thunder: false, dayPart: "DAY" }],
    ["partlycloudy", { code: "PARTLY_CLOUDY", thunder: false, dayPart: null }],
    ["lightrainshowersandthunder_night", { code: "LIGHT_RAIN_SHOWERS", thunder: true, dayPart: "NIGHT" }],
    ["heavysleetshowersandthunder", { code: "HEAVY_SLEET_SHOWERS", thunder: true, dayPart: null }],
    ["clearsky", { code: "CLEAR_SKY", thunder: false, dayPart: null }],
    ["clearsky_polartwilight", { code: "CLEAR_SKY", thunder: false, dayPart: "POLAR_TWILIGHT" }],
    ["heavyrainandthunder", { code: "HEAVY_RAIN", thunder: true, dayPart: null }],
    ["lightsnow", { code: "LIGHT_SNOW", thunder: false, dayPart: null }],
    ["fog", { code: "FOG", thunder: false, dayPart: null }],
  ])("maps %s", (symbol, condition) => {
    expect(toCondition(symbol)).toEqual(condition);
  });

  it("maps MET's two misspelled codes to the correctly spelled words", () => {
    expect(toCondition("lightssleetshowersandthunder_day")).toEqual({
      code: "LIGHT_SLEET_SHOWERS",
      thunder: true,
      dayPart: "DAY",
    });
    expect(toCondition("lightssnowshowersandthunder_polartwilight")).toEqual({
      code: "LIGHT_SNOW_SHOWERS",
      thunder: true,
      dayPart: "POLAR_TWILIGHT",
    });
  });

  it("reads each of the three day-part suffixes", () => {
    expect(toCondition("rainshowers_day")?.dayPart).toBe("DAY");
    expect(toCondition("rainshowers_night")?.dayPart).toBe("NIGHT");
    expect(toCondition("rainshowers_polartwilight")?.dayPart).toBe("POLAR_TWILIGHT");
    expect(toCondition("rainshowers")?.dayPart).toBeNull();
  });

  it("gives no condition when there is no symbol", () => {
    expect(toCondition(null)).toBeNull();
  });

  it("knows every one of MET's 83 codes, with thunder exactly when the code says andthunder", () => {
    expect(MET_SYMBOL_CODES).toHaveLength(83);
    for (const symbol of MET_SYMBOL_CODES) {
      const condition = toCondition(symbol);
      expect(condition?.code, symbol).not.toBe("UNKNOWN");
      expect(condition?.thunder, symbol).toBe(symbol.includes("andthunder"));
    }
  });

  it("uses every condition code, and only those of the model's list", () => {
    const used = new Set(MET_SYMBOL_CODES.map((symbol) => toCondition(symbol)?.code));
    expect([...used, "UNKNOWN"].sort()).toEqual([...CONDITION_CODES].sort());
  });

  it("passes an unknown symbol on as UNKNOWN, keeping the suffix and the thunder MET's naming states", () => {
    expect(toCondition("hail_day")).toEqual({ code: "UNKNOWN", thunder: false, dayPart: "DAY" });
    expect(toCondition("hailandthunder")).toEqual({ code: "UNKNOWN", thunder: true, dayPart: null });
    expect(toCondition("")).toEqual({ code: "UNKNOWN", thunder: false, dayPart: null });
    // Names that exist on every JavaScript object are not symbols either.
    expect(toCondition("constructor")).toEqual({ code: "UNKNOWN", thunder: false, dayPart: null });
  });
});
