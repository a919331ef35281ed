import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPlacesIndex, loadAllTheCities } from "../../cli/places/build-places-index.ts";
import { type RunningService, startService } from "../support/service.ts";

describe("place search route", () => {
  let withGazetteer: RunningService;
  let without: RunningService;
  beforeAll(async () => {
    withGazetteer = await startService();
    const cities = loadAllTheCities().filter(
      (city) => ["NO", "CH", "BR", "FR"].includes(city.country) && city.population > 50_000,
    );
    buildPlacesIndex(withGazetteer.dataDir, { cities });
    without = await startService();
  });
  afterAll(async () => {
    await withGazetteer.close();
    await without.close();
  });

  it("finds places by accent-insensitive prefix, ranked by population, with GeoNames attribution", async () => {
    const { status, body, headers } = await withGazetteer.request("/api/public/v1/weather/places?q=zur&limit=3");
    expect(status).toBe(200);
    expect(body.data.places[0]).toMatchObject({ name: "Zürich", countryCode: "CH", timeZone: "Europe/Zurich" });
    expect(body.data.attribution).toMatchObject({ required: true, licenseName: "CC BY 4.0" });
    expect(body.meta.attributionRecords).toEqual([expect.objectContaining({ sourceId: "geonames", required: true })]);
    expect(headers.get("cache-control")).toMatch(/^public, max-age=/);
    const sao = await withGazetteer.request("/api/public/v1/weather/places?q=sao%20paulo");
    expect(sao.body.data.places[0].name).toBe("São Paulo");
  });

  it("refuses a query shorter than 2 characters", async () => {
    for (const q of ["", "a", "%20z%20"]) {
      const { status, body } = await withGazetteer.request(`/api/public/v1/weather/places?q=${q}`);
      expect(status, q).toBe(400);
      expect(body.error.code).toBe("VALIDATION_FAILED");
    }
  });

  it("answers 200 with an empty list when the deployment has no gazetteer", async () => {
    const { status, body } = await without.request("/api/public/v1/weather/places?q=oslo");
    expect(status).toBe(200);
    expect(body.data).toEqual({ places: [], attribution: null });
    expect(body.meta.attributionRecords).toEqual([]);
  });

  it("credits GeoNames only when it serves places: a search that finds nothing carries no attribution", async () => {
    const { status, body } = await withGazetteer.request("/api/public/v1/weather/places?q=qxqxqx");
    expect(status).toBe(200);
    expect(body.data).toEqual({ places: [], attribution: null });
    expect(body.meta.attributionRecords).toEqual([]);
  });
});
