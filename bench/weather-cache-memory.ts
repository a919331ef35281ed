/**
 * Heap cost of a full weather cache: DEFAULT_MAX_ENTRIES points, each holding what production stores, the normalised
 * payload of a real MET complete document (Berlin, 84 time steps, every field present).
 * Run: node --expose-gc --import tsx bench/weather-cache-memory.ts
 */
import { readFileSync } from "node:fs";
import { createWeatherCache, DEFAULT_MAX_ENTRIES } from "../server/weather/cache.ts";
import type { MetClient } from "../server/weather/met-client.ts";
import { parseMetDocument } from "../server/weather/met-document.ts";
import { normaliseMetDocument } from "../server/weather/normalise.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc so the heap can be measured after collection");

const document = readFileSync(new URL("../test/fixtures/met/complete-berlin-2022-08-02.json", import.meta.url), "utf8");

// A fresh JSON.parse per point, as each real entry comes from its own HTTP body.
const client: MetClient = {
  fetchLocation: async () => ({ kind: "modified", body: JSON.parse(document), expires: null, lastModified: null }),
};
const cache = createWeatherCache({
  client,
  parse: (body) => normaliseMetDocument(parseMetDocument(body)),
  now: Date.now,
  rateGate: { acquire: async () => () => undefined, pauseFor: () => undefined },
});

const heapUsed = () => {
  gc();
  return process.memoryUsage().heapUsed;
};
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

const before = heapUsed();
for (let i = 0; i < DEFAULT_MAX_ENTRIES; i++) {
  await cache.get({ lat: 50 + Math.floor(i / 100) / 100, lon: (i % 100) / 100 }, "forecast");
}
const after = heapUsed();
// Also keeps the cache reachable until after the measurement, or the collector would free it early.
const firstPoint = await cache.get({ lat: 50, lon: 0 }, "forecast");
if (!firstPoint.cached)
  throw new Error("the first point was evicted: the cache held fewer than DEFAULT_MAX_ENTRIES points");

console.log(`entries: ${DEFAULT_MAX_ENTRIES}`);
console.log(`heap used before: ${mb(before)} MB, after: ${mb(after)} MB, held by the cache: ${mb(after - before)} MB`);
console.log(`per entry: ${((after - before) / DEFAULT_MAX_ENTRIES / 1024).toFixed(1)} KB`);
