import { readFileSync } from "node:fs";
import { DateTime } from "luxon";
import { parseMetDocument } from "../../server/weather/met-document.ts";
import type { WeatherPayload } from "../../server/weather/model.ts";
import { normaliseMetDocument } from "../../server/weather/normalise.ts";

/** Recorded MET responses in test/fixtures/met (see SOURCES.md there). */
export const MET_FIXTURES = [
  "complete-berlin-2022-08-02",
  "complete-london-2020-07-20",
  "compact-brisbane-2025-10-29",
  "compact-oslo-2026-02-06",
] as const;
export type MetFixture = (typeof MET_FIXTURES)[number];

/** A fresh, mutable copy of a recorded body, as the client would hand it over after JSON.parse. */
export function loadMetFixture(name: MetFixture): any {
  return JSON.parse(readFileSync(new URL(`../fixtures/met/${name}.json`, import.meta.url), "utf8"));
}

export function payloadFrom(body: unknown): WeatherPayload {
  return normaliseMetDocument(parseMetDocument(body));
}

/** A recorded body with every time moved by the same amount, so that its first step falls at `firstStepAt`. */
export function shiftedMetFixture(name: MetFixture, firstStepAt: string): any {
  const body = loadMetFixture(name);
  const shift = DateTime.fromISO(firstStepAt).diff(DateTime.fromISO(body.properties.timeseries[0].time));
  const moved = (time: string) =>
    DateTime.fromISO(time, { zone: "utc" }).plus(shift).toISO({ suppressMilliseconds: true });
  body.properties.meta.updated_at = moved(body.properties.meta.updated_at);
  for (const step of body.properties.timeseries) step.time = moved(step.time);
  return body;
}

export interface SyntheticStep {
  time: string;
  temperatureC?: number;
  oneHour?: { precipitationMm: number; symbol?: string };
  sixHours?: { precipitationMm: number; minC?: number; maxC?: number; symbol?: string };
}

/** A minimal document with only the steps a test spells out, shaped like MET's own. */
export function syntheticMetDocument(steps: SyntheticStep[]): unknown {
  return {
    type: "Feature",
    geometry: { type: "Point", coordinates: [10.75, 59.91, 5] },
    properties: {
      meta: { updated_at: steps[0]?.time, units: { air_temperature: "celsius", precipitation_amount: "mm" } },
      timeseries: steps.map((step) => ({
        time: step.time,
        data: {
          instant: { details: step.temperatureC === undefined ? {} : { air_temperature: step.temperatureC } },
          ...(step.oneHour && {
            next_1_hours: {
              summary: { symbol_code: step.oneHour.symbol ?? "cloudy" },
              details: { precipitation_amount: step.oneHour.precipitationMm },
            },
          }),
          ...(step.sixHours && {
            next_6_hours: {
              summary: { symbol_code: step.sixHours.symbol ?? "cloudy" },
              details: {
                precipitation_amount: step.sixHours.precipitationMm,
                ...(step.sixHours.minC !== undefined && { air_temperature_min: step.sixHours.minC }),
                ...(step.sixHours.maxC !== undefined && { air_temperature_max: step.sixHours.maxC }),
              },
            },
          }),
        },
      })),
    },
  };
}
