import { describe, expect, it } from "vitest";
import { loadMetFixture, payloadFrom } from "./met-fixtures.ts";

// Expected values are read off the first timeseries entry of each fixture file by hand.

describe("normaliseMetDocument: the current record", () => {
  it("maps Berlin (complete, Nordic model)", () => {
    const { current } = payloadFrom(loadMetFixture("complete-berlin-2022-08-02"));
    expect(current).toMatchObject({
      location: { latitude: 53.5, longitude: 13, altitudeMetres: 61 },
      observedAt: "2022-08-02T16:00:00Z",
      providerModelUpdatedAt: "2022-08-02T15:41:37Z",
      temperatureC: 25.4,
      windSpeedMps: 3.1,
      humidityPercent: 31.8,
      pressureHpa: 1016.5,
      windDirectionDegrees: 249.5,
      cloudCoverPercent: 97.7,
      uvIndex: 1.1,
      precipitationMm: 0,
      // next_1_hours says partlycloudy_day; next_6_hours (cloudy) is further away.
      condition: { code: "PARTLY_CLOUDY", thunder: false, dayPart: "DAY" },
    });
  });

  it("maps London (complete, global model)", () => {
    const { current } = payloadFrom(loadMetFixture("complete-london-2020-07-20"));
    expect(current).toMatchObject({
      location: { latitude: 51.5, longitude: -0.1, altitudeMetres: 25 },
      observedAt: "2020-07-20T11:00:00Z",
      providerModelUpdatedAt: "2020-07-20T01:30:57Z",
      temperatureC: 18.8,
      windSpeedMps: 2.3,
      humidityPercent: 47,
      pressureHpa: 1023.2,
      windDirectionDegrees: 349.3,
      cloudCoverPercent: 12.5,
      uvIndex: 6.4,
      precipitationMm: 0,
      condition: { code: "CLEAR_SKY", thunder: false, dayPart: "DAY" },
    });
  });

  it("maps Brisbane (compact: no UV index, so null rather than zero)", () => {
    const { current } = payloadFrom(loadMetFixture("compact-brisbane-2025-10-29"));
    expect(current).toMatchObject({
      location: { latitude: -27.5, longitude: 153, altitudeMetres: 19 },
      observedAt: "2025-10-29T01:00:00Z",
      providerModelUpdatedAt: "2025-10-29T00:47:34Z",
      temperatureC: 23,
      windSpeedMps: 2.1,
      humidityPercent: 65.4,
      pressureHpa: 1014.2,
      windDirectionDegrees: 158.9,
      cloudCoverPercent: 50.8,
      uvIndex: null,
      precipitationMm: 0.2,
      condition: { code: "LIGHT_RAIN_SHOWERS", thunder: false, dayPart: "DAY" },
    });
  });

  it("maps Oslo (compact, winter, four-decimal point)", () => {
    const { current } = payloadFrom(loadMetFixture("compact-oslo-2026-02-06"));
    expect(current).toMatchObject({
      location: { latitude: 59.9139, longitude: 10.7522, altitudeMetres: 5 },
      observedAt: "2026-02-06T21:00:00Z",
      providerModelUpdatedAt: "2026-02-06T20:27:06Z",
      temperatureC: -5.8,
      windSpeedMps: 6,
      humidityPercent: 66.5,
      pressureHpa: 1014.6,
      windDirectionDegrees: 37,
      cloudCoverPercent: 100,
      uvIndex: null,
      precipitationMm: 0.5,
      // next_1_hours says snow, next_12_hours lightsnow: the nearest period wins.
      condition: { code: "SNOW", thunder: false, dayPart: null },
    });
  });

  it("always carries every field, with MET Norway's source and attribution", () => {
    const { current } = payloadFrom(loadMetFixture("compact-oslo-2026-02-06"));
    expect(Object.keys(current).sort()).toEqual([
      "attribution",
      "cloudCoverPercent",
      "condition",
      "humidityPercent",
      "location",
      "observedAt",
      "precipitationMm",
      "pressureHpa",
      "providerModelUpdatedAt",
      "source",
      "temperatureC",
      "uvIndex",
      "windDirectionDegrees",
      "windSpeedMps",
    ]);
    expect(current.source).toEqual({
      id: "met-norway-locationforecast",
      name: "MET Norway Locationforecast 2.0",
      url: "https://api.met.no/weatherapi/locationforecast/2.0/",
    });
    expect(current.attribution).toEqual({
      text: "Based on data from MET Norway",
      required: true,
      licenseName: "NLOD 2.0 and CC BY 4.0",
      licenseUrl: "https://api.met.no/doc/License",
    });
  });

  it("turns each measurement the provider left out into null", () => {
    const body = loadMetFixture("complete-berlin-2022-08-02");
    body.properties.timeseries[0].data.instant.details = { air_temperature: 25.4 };
    const { current } = payloadFrom(body);
    expect(current).toMatchObject({
      temperatureC: 25.4,
      windSpeedMps: null,
      humidityPercent: null,
      pressureHpa: null,
      windDirectionDegrees: null,
      cloudCoverPercent: null,
      uvIndex: null,
    });
  });

  it("takes the condition from the next nearest period, and has no hourly precipitation without a 1-hour period", () => {
    const body = loadMetFixture("complete-berlin-2022-08-02");
    delete body.properties.timeseries[0].data.next_1_hours;
    const { current } = payloadFrom(body);
    expect(current.condition).toEqual({ code: "CLOUDY", thunder: false, dayPart: null });
    expect(current.precipitationMm).toBeNull();

    delete body.properties.timeseries[0].data.next_6_hours;
    expect(payloadFrom(body).current.condition).toEqual({ code: "PARTLY_CLOUDY", thunder: false, dayPart: "DAY" });
  });

  it("has no condition when no period carries a symbol", () => {
    const body = loadMetFixture("compact-oslo-2026-02-06");
    const data = body.properties.timeseries[0].data;
    for (const period of [data.next_1_hours, data.next_6_hours, data.next_12_hours]) delete period.summary;
    expect(payloadFrom(body).current.condition).toBeNull();
  });

  it("leaves the altitude null when the provider does not state one", () => {
    const body = loadMetFixture("compact-oslo-2026-02-06");
    body.geometry.coordinates = [10.7522, 59.9139];
    expect(payloadFrom(body).location).toEqual({ latitude: 59.9139, longitude: 10.7522, altitudeMetres: null });
  });

  it("writes every instant in UTC whatever offset the provider used", () => {
    const body = loadMetFixture("compact-oslo-2026-02-06");
    body.properties.meta.updated_at = "2026-02-06T21:27:06+01:00";
    body.properties.timeseries[0].time = "2026-02-06T22:00:00+01:00";
    const payload = payloadFrom(body);
    expect(payload.providerModelUpdatedAt).toBe("2026-02-06T20:27:06Z");
    expect(payload.current.observedAt).toBe("2026-02-06T21:00:00Z");
  });
});

describe("normaliseMetDocument: hours, windows and instants", () => {
  const payload = payloadFrom(loadMetFixture("complete-berlin-2022-08-02"));

  it("lists the hourly range only: the 56 steps that start a 1-hour period", () => {
    expect(payload.hours).toHaveLength(56);
    expect(payload.hours[0]?.startsAt).toBe("2022-08-02T16:00:00Z");
    expect(payload.hours.at(-1)?.startsAt).toBe("2022-08-04T23:00:00Z");
    // Second step of the file, by hand.
    expect(payload.hours[1]).toMatchObject({
      startsAt: "2022-08-02T17:00:00Z",
      temperatureC: 25.1,
      windSpeedMps: 2.1,
      humidityPercent: 34.6,
      uvIndex: 0.5,
    });
  });

  it("lists every 1-hour and 6-hour period: 56 + (51 in the hourly range + 27 later)", () => {
    expect(payload.windows.filter((window) => window.durationHours === 1)).toHaveLength(56);
    expect(payload.windows.filter((window) => window.durationHours === 6)).toHaveLength(78);
    expect(payload.windows.find((window) => window.startsAt === "2022-08-05T06:00:00Z")).toEqual({
      startsAt: "2022-08-05T06:00:00Z",
      durationHours: 6,
      precipitationMm: 2.7,
      temperatureMinC: 19.5,
      temperatureMaxC: 22.1,
      condition: { code: "RAIN", thunder: false, dayPart: null },
    });
  });

  it("has no minimum or maximum on 1-hour periods, nor on 6-hour periods of a compact document", () => {
    expect(
      payload.windows.filter((window) => window.durationHours === 1).every((window) => window.temperatureMinC === null),
    ).toBe(true);
    const compact = payloadFrom(loadMetFixture("compact-oslo-2026-02-06"));
    expect(compact.windows.every((window) => window.temperatureMinC === null && window.temperatureMaxC === null)).toBe(
      true,
    );
  });

  it("keeps every step's instant temperature, the last step (instant only) included", () => {
    expect(payload.instantTemperatures).toHaveLength(84);
    expect(payload.instantTemperatures.at(-1)).toEqual({ at: "2022-08-11T18:00:00Z", temperatureC: 22.1 });
  });
});
