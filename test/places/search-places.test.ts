import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { buildPlacesIndex } from "../../cli/places/build-places-index.ts";
import { attributionRecordSchema } from "../../schemas/responses/envelope.ts";
import { placesSchema } from "../../schemas/responses/weather.ts";
import { createValidator } from "../../schemas/validator.ts";
import { PUBLISHED_FILE_RECHECK_MS } from "../../server/files/reloading-file.ts";
import {
  createPlaceSearch,
  GEONAMES_ATTRIBUTION,
  GEONAMES_ATTRIBUTION_RECORD,
  type PlaceSearch,
  placesMatchExpression,
} from "../../server/places/search-places.ts";
import { citySubset, tempDataDir } from "./city-subset.ts";

/** The server looks at a published gazetteer again within PUBLISHED_FILE_RECHECK_MS. */
const published = () => new Promise((resolve) => setTimeout(resolve, PUBLISHED_FILE_RECHECK_MS + 5));

const names = (places: { name: string }[]) => places.map((place) => place.name);

describe("place search", () => {
  let places: PlaceSearch;
  beforeAll(() => {
    const dir = tempDataDir();
    buildPlacesIndex(dir, { cities: citySubset() });
    places = createPlaceSearch(dir);
  });

  it("matches word prefixes", () => {
    expect(places.search("osl", 10)[0]).toMatchObject({ name: "Oslo", countryCode: "NO" });
    expect(names(places.search("new yo", 10))).toContain("New York City");
  });

  it("matches without accents, and with them", () => {
    expect(names(places.search("zurich", 10))).toContain("Zürich");
    expect(names(places.search("Zürich", 10))).toContain("Zürich");
    expect(places.search("sao paulo", 10)[0]).toMatchObject({ name: "São Paulo", countryCode: "BR" });
    expect(names(places.search("saint etienne", 10))).toContain("Saint-Étienne");
  });

  it("matches letters that do not decompose (ø, ł) by their plain forms", () => {
    expect(names(places.search("tromso", 10))).toContain("Tromsø");
    expect(names(places.search("lodz", 10))).toContain("Łódź");
  });

  it("ignores case", () => {
    expect(places.search("OSLO", 10)).toEqual(places.search("oslo", 10));
    expect(places.search("SÃO PAULO", 10)[0]?.name).toBe("São Paulo");
    expect(places.search("sÃo pAuLo", 10)[0]?.name).toBe("São Paulo");
  });

  it("ranks by population, largest first", () => {
    const paris = places.search("paris", 50);
    expect(paris[0]).toMatchObject({ countryCode: "FR" });
    expect(paris.findIndex((place) => place.adminArea === "TX")).toBeGreaterThan(0);
    const springfields = places.search("springfield", 50);
    expect(springfields.length).toBeGreaterThan(10);
    const populations = springfields.map((place) => place.population ?? -1);
    expect(populations).toEqual([...populations].sort((a, b) => b - a));
  });

  it("applies the limit, bounded by the route maximum", () => {
    expect(places.search("springfield", 3)).toHaveLength(3);
    expect(places.search("springfield", 3)).toEqual(places.search("springfield", 50).slice(0, 3));
    expect(places.search("springfield", 0)).toEqual([]);
    expect(places.search("a", 10_000).length).toBeLessThanOrEqual(50);
  });

  it("answers records of the route's shape", () => {
    const validate = createValidator().compile(placesSchema);
    expect(validate({ places: places.search("paris", 50), attribution: GEONAMES_ATTRIBUTION })).toBe(true);
    expect(createValidator().compile(attributionRecordSchema)(GEONAMES_ATTRIBUTION_RECORD)).toBe(true);
  });

  it("never lets input reach FTS5 syntax", () => {
    const hostile = [
      '"',
      "*",
      "NEAR(a b)",
      "a OR b",
      "-x",
      "col:val",
      "folded_name:oslo",
      "oslo AND",
      "^osl",
      "(",
      "'",
      "\\",
      "🏙️",
      "🏙️🌧️",
      "x".repeat(500),
      `${"o".repeat(500)} oslo`,
      "\u0000",
    ];
    for (const query of hostile) expect(() => places.search(query, 10), query).not.toThrow();
    for (const query of ['"', "*", "(", "🏙️", "x".repeat(500), "folded_name:oslo"])
      expect(places.search(query, 10), query).toEqual([]);
    expect(places.search("Oslo 🏙️", 10)[0]?.name).toBe("Oslo");
    expect(places.search('"oslo"', 10)[0]?.name).toBe("Oslo");
    expect(placesMatchExpression('NEAR(a b) OR "c*')).toBe('"near"* "a"* "b"* "or"* "c"*');
    expect(placesMatchExpression("🏙️ -- **")).toBeNull();
  });
});

describe("place search lifecycle", () => {
  it("answers [] while no gazetteer is published", () => {
    const places = createPlaceSearch(tempDataDir());
    expect(places.search("oslo", 10)).toEqual([]);
  });

  it("picks up a gazetteer published or replaced while running", async () => {
    const dir = tempDataDir();
    const places = createPlaceSearch(dir);
    expect(places.search("oslo", 10)).toEqual([]);
    const cities = citySubset();
    buildPlacesIndex(dir, { cities: cities.filter((city) => city.name !== "Oslo") });
    await published();
    expect(names(places.search("oslo", 10))).not.toContain("Oslo");
    buildPlacesIndex(dir, { cities });
    await published();
    expect(places.search("oslo", 10)[0]?.name).toBe("Oslo");
  });

  it("treats a gazetteer of an older format (places without zones) as none, until a current one replaces it", async () => {
    const dir = tempDataDir();
    buildPlacesIndex(dir, { cities: citySubset() });
    const old = new Database(join(dir, "places.sqlite"));
    old.pragma("user_version = 1");
    old.close();
    const places = createPlaceSearch(dir);
    expect(places.search("oslo", 10)).toEqual([]);
    buildPlacesIndex(dir, { cities: citySubset() });
    await published();
    expect(places.search("oslo", 10)[0]).toMatchObject({ name: "Oslo", timeZone: "Europe/Oslo" });
  });

  it("treats an unreadable file as no gazetteer, until a good one replaces it", async () => {
    const dir = tempDataDir();
    const places = createPlaceSearch(dir);
    writeFileSync(join(dir, "places.sqlite"), "not a database");
    expect(places.search("oslo", 10)).toEqual([]);
    buildPlacesIndex(dir, { cities: citySubset() });
    await published();
    expect(places.search("oslo", 10)[0]?.name).toBe("Oslo");
  });
});
