import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { buildPlacesIndex } from "../../cli/places/build-places-index.ts";
import { PLACES_INDEX_VERSION } from "../../schemas/places-ddl.ts";
import { createPlaceSearch } from "../../server/places/search-places.ts";
import { isKnownZone } from "../../server/time/zone-clock.ts";
import { citySubset, tempDataDir } from "./city-subset.ts";

describe("buildPlacesIndex", () => {
  it("publishes places.sqlite by rename, leaving no building file", () => {
    const dir = tempDataDir();
    const cities = citySubset();
    const { path, count } = buildPlacesIndex(dir, { cities });
    expect(path).toBe(join(dir, "places.sqlite"));
    expect(count).toBe(cities.length);
    expect(readdirSync(dir)).toEqual(["places.sqlite"]);
  });

  it("maps GeoNames fields, reading a zero population as unknown and adding the point's time zone", () => {
    const dir = tempDataDir();
    const unknownPopulation = {
      cityId: 1,
      name: "Nowhere",
      country: "NO",
      adminCode: "",
      population: 0,
      loc: { coordinates: [10.5, 59.9] as [number, number] },
    };
    buildPlacesIndex(dir, { cities: [unknownPopulation] });
    const db = new Database(join(dir, "places.sqlite"), { readonly: true });
    expect(db.prepare("SELECT * FROM places").all()).toEqual([
      {
        id: 1,
        name: "Nowhere",
        folded_name: "nowhere",
        country_code: "NO",
        admin_code: null,
        latitude: 59.9,
        longitude: 10.5,
        population: null,
        time_zone: "Europe/Oslo",
      },
    ]);
    expect(db.pragma("user_version", { simple: true })).toBe(PLACES_INDEX_VERSION);
    db.close();
  });

  it("leaves no file behind when a build fails", () => {
    const dir = tempDataDir();
    const offTheMap = {
      cityId: 2,
      name: "Offmap",
      country: "NO",
      adminCode: "",
      population: 1,
      loc: { coordinates: [10.5, 95] as [number, number] },
    };
    expect(() => buildPlacesIndex(dir, { cities: [...citySubset(), offTheMap] })).toThrow();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("builds the whole package, every place with a zone the service knows", () => {
    const dir = tempDataDir();
    try {
      const { path, count } = buildPlacesIndex(dir);
      expect(count).toBeGreaterThan(130_000);
      expect(statSync(path).size).toBeLessThan(30_000_000);
      const search = createPlaceSearch(dir);
      expect(search.search("sao paulo", 1)[0]).toMatchObject({
        name: "São Paulo",
        countryCode: "BR",
        timeZone: "America/Sao_Paulo",
      });
      expect(search.search("tromso", 1)[0]).toMatchObject({ name: "Tromsø", timeZone: "Europe/Oslo" });
      expect(search.search("adelaide", 1)[0]).toMatchObject({ countryCode: "AU", timeZone: "Australia/Adelaide" });
      const db = new Database(path, { readonly: true });
      const zones = db.prepare("SELECT DISTINCT time_zone FROM places").pluck().all() as string[];
      db.close();
      expect(zones.length).toBeGreaterThan(300);
      expect(zones.filter((zone) => !isKnownZone(zone))).toEqual([]);
    } finally {
      // The whole gazetteer is some 14 MB; the small test files are left like every other test's.
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
