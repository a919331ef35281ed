import { describe, expect, it } from "vitest";
import { ApiError } from "../../server/http/api-error.ts";
import { parseForecastZone } from "../../server/weather/location-params.ts";

const kolkata = { lat: 22.57, lon: 88.36 };

describe("parseForecastZone", () => {
  it("reads auto, in any case and trimmed as every tz value, as the zone of the point", () => {
    expect(parseForecastZone("auto", kolkata)).toBe("Asia/Kolkata");
    expect(parseForecastZone(" auto\t", kolkata)).toBe("Asia/Kolkata");
    expect(parseForecastZone("AUTO", { lat: -34.93, lon: 138.6 })).toBe("Australia/Adelaide");
    expect(parseForecastZone("Auto", { lat: 30, lon: -40, altitude: 0 })).toBe("Etc/GMT+3");
  });

  it("keeps the rule of every route for any other value: UTC when absent, an IANA zone as given", () => {
    expect(parseForecastZone(null, kolkata)).toBe("UTC");
    expect(parseForecastZone("", kolkata)).toBe("UTC");
    expect(parseForecastZone("Europe/Oslo", kolkata)).toBe("Europe/Oslo");
  });

  it("refuses an unknown zone, near-misses of auto included, with VALIDATION_FAILED", () => {
    for (const raw of ["Mars/Olympus", "au to", "auto\u200b", "automatic", "autos", "local"]) {
      let thrown: unknown;
      try {
        parseForecastZone(raw, kolkata);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, raw).toBeInstanceOf(ApiError);
      expect((thrown as ApiError).code, raw).toBe("VALIDATION_FAILED");
    }
  });
});
