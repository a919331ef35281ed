import { setImmediate as nextTurn } from "node:timers/promises";
import { expect, onTestFinished } from "vitest";
import { createWeatherCache, type WeatherCacheOptions } from "../../server/weather/cache.ts";
import { createMetClient, type MetClient } from "../../server/weather/met-client.ts";
import { createRateGate } from "../../server/weather/rate-gate.ts";
import { WeatherUpstreamError } from "../../server/weather/upstream-error.ts";
import { type MetStandinOptions, startMetStandin } from "./met-standin.ts";

/** A weather cache against the MET stand-in on a fake clock, for the cache's lifecycle and upstream tests. */

export const START = Date.parse("2026-11-21T12:00:00Z");
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const OSLO = { lat: 59.9139, lon: 10.7522 };
export const LONDON_UPDATED_AT = "2020-07-20T01:30:57Z";
export const BERLIN_UPDATED_AT = "2022-08-02T15:41:37Z";

/** Stands in for the real normaliser: keeps one field and rejects documents without it. */
function modelRunTime(body: unknown): string {
  const updatedAt = (body as { properties?: { meta?: { updated_at?: unknown } } }).properties?.meta?.updated_at;
  if (typeof updatedAt !== "string") throw new Error("not a Locationforecast document");
  return updatedAt;
}

let now = START;
/** The fake clock every part of the harness reads. */
export const clock = () => now;
export const advance = (ms: number) => {
  now += ms;
};
/** Lets everything already started run, then moves the fake clock: the gate's waits cost no real time. */
export const fakeSleep = async (ms: number) => {
  await nextTurn();
  now += ms;
};

export interface Setup extends Partial<Omit<WeatherCacheOptions<string>, "client">> {
  standin?: Omit<MetStandinOptions, "now">;
  timeoutMs?: number;
  /** Sees every call the cache makes to the provider. */
  wrapClient?: (client: MetClient) => MetClient;
}

export async function setup({ standin: standinOptions, timeoutMs = 2000, wrapClient, ...cacheOptions }: Setup = {}) {
  now = START;
  const standin = await startMetStandin({ now: clock, ...standinOptions });
  // Closed when the test that set it up finishes. A hook of the test, not an afterEach of this module: test files
  // share their worker (isolate: false, vitest.config.ts), and a module's top-level afterEach would be registered
  // only in the first file of a worker that imports it.
  onTestFinished(() => standin.close());
  const metClient = createMetClient({
    baseUrl: standin.url,
    userAgent: "cache-test/1 ops@example.org",
    timeoutMs,
    maxBytes: 1_000_000,
  });
  const cache = createWeatherCache<string>({
    client: wrapClient ? wrapClient(metClient) : metClient,
    parse: modelRunTime,
    now: clock,
    rateGate: createRateGate({ now: clock, sleep: fakeSleep }),
    ...cacheOptions,
  });
  return { cache, standin };
}

export async function rejection(promise: Promise<unknown>): Promise<WeatherUpstreamError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WeatherUpstreamError);
  return error as WeatherUpstreamError;
}
