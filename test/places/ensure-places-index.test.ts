import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { buildPlacesIndex } from "../../cli/places/build-places-index.ts";
import { ensurePlacesIndex, placesIndexState } from "../../cli/places/ensure-places-index.ts";
import { createPlaceSearch } from "../../server/places/search-places.ts";
import { citySubset, tempDataDir } from "./city-subset.ts";

describe("ensurePlacesIndex", () => {
  it("builds a missing gazetteer, saying so and how long it took", () => {
    const dir = tempDataDir();
    const lines: string[] = [];
    expect(placesIndexState(dir)).toBe("missing");
    ensurePlacesIndex(dir, (line) => lines.push(line), { cities: citySubset() });
    expect(lines[0]).toMatch(/^no place search index in .+: building it/);
    expect(lines[1]).toMatch(/^place search index built: \d+ places with their time zones in \d+\.\d s$/);
    expect(placesIndexState(dir)).toBe("current");
    expect(createPlaceSearch(dir).search("tromso", 1)[0]).toMatchObject({ name: "Tromsø", timeZone: "Europe/Oslo" });
  });

  it("leaves a current gazetteer alone and says nothing", () => {
    const dir = tempDataDir();
    buildPlacesIndex(dir, { cities: citySubset() });
    const lines: string[] = [];
    ensurePlacesIndex(dir, (line) => lines.push(line), { cities: [] });
    expect(lines).toEqual([]);
    expect(createPlaceSearch(dir).search("oslo", 1)[0]?.name).toBe("Oslo");
  });

  it("rebuilds a gazetteer of an older format or an unreadable file", () => {
    for (const spoil of [
      (path: string) => {
        const db = new Database(path);
        db.pragma("user_version = 0");
        db.close();
      },
      (path: string) => writeFileSync(path, "not a database"),
    ]) {
      const dir = tempDataDir();
      buildPlacesIndex(dir, { cities: citySubset() });
      spoil(join(dir, "places.sqlite"));
      expect(placesIndexState(dir)).toBe("outdated");
      const lines: string[] = [];
      ensurePlacesIndex(dir, (line) => lines.push(line), { cities: citySubset() });
      expect(lines[0]).toMatch(/older format: rebuilding it$/);
      expect(placesIndexState(dir)).toBe("current");
    }
  });

  it("reports a failed build and leaves no file behind, so the service starts without place search", () => {
    const dir = tempDataDir();
    const offTheMap = {
      cityId: 1,
      name: "Offmap",
      country: "NO",
      adminCode: "",
      population: 1,
      loc: { coordinates: [10, 120] as [number, number] },
    };
    const lines: string[] = [];
    expect(() => ensurePlacesIndex(dir, (line) => lines.push(line), { cities: [offTheMap] })).not.toThrow();
    expect(lines[1]).toMatch(
      /^place search index could not be built \(.+\): place search answers an empty list until `service places` succeeds$/,
    );
    expect(readdirSync(dir)).toEqual([]);
    expect(placesIndexState(dir)).toBe("missing");
  });
});
