/**
 * Heap cost of a full weather cache: the default bound of points, each holding what production stores, the packed
 * payload of a real MET complete document (Berlin, 84 time steps, every field present).
 * Run: node --expose-gc --import tsx bench/weather-cache-memory.ts
 */
import { readFileSync } from "node:fs";
import { createWeatherCache } from "../server/weather/cache.ts";
import type { MetClient } from "../server/weather/met-client.ts";
import { parseMetDocument } from "../server/weather/met-document.ts";
import { normaliseMetDocument } from "../server/weather/normalise.ts";
import { packPayload, storedPayloadBytes, storePayload } from "../server/weather/stored-payload.ts";
import { DEFAULT_WEATHER_SETTINGS } from "../server/weather/weather-settings.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc so the heap can be measured after collection");

const ENTRIES = DEFAULT_WEATHER_SETTINGS.maxEntries;
const document = readFileSync(new URL("../test/fixtures/met/complete-berlin-2022-08-02.json", import.meta.url), "utf8");

// A fresh JSON.parse per point, as each real entry comes from its own HTTP body.
const client: MetClient = {
  fetchLocation: async () => ({ kind: "modified", body: JSON.parse(document), expires: null, lastModified: null }),
};
const cache = createWeatherCache({
  client,
  // What the document worker does, then the serving thread (met-weather-source.ts).
  parse: (body) => storePayload(packPayload(normaliseMetDocument(parseMetDocument(body)))),
  sizeOf: storedPayloadBytes,
  now: Date.now,
  rateGate: { acquire: async () => () => undefined, pauseFor: () => undefined },
});

const heapUsed = () => {
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

const before = heapUsed();
for (let i = 0; i < ENTRIES; i++) {
  await cache.get({ lat: 50 + Math.floor(i / 100) / 100, lon: (i % 100) / 100 }, "forecast");
}
const after = heapUsed();
// Also keeps the cache reachable until after the measurement, or the collector would free it early.
const firstPoint = await cache.get({ lat: 50, lon: 0 }, "forecast");
if (!firstPoint.cached) throw new Error("the first point was evicted: the cache held fewer than the bound's points");

console.log(`entries: ${ENTRIES}, counted bytes: ${mb(cache.bytes)} MB`);
console.log(
  `heap and buffers before: ${mb(before)} MB, after: ${mb(after)} MB, held by the cache: ${mb(after - before)} MB`,
);
console.log(`per entry: ${((after - before) / ENTRIES / 1024).toFixed(1)} KB`);
