import { type Static, type TNumber, type TOptional, type TSchema, Type } from "@sinclair/typebox";
import { compileAssertion } from "../../schemas/validator.ts";
import { readMetInstant } from "./met-instants.ts";
import { UNITS } from "./units.ts";

/** Units MET must declare for what we read, if it lists them: another unit is refused rather than mislabelled. */
const EXPECTED_UNITS: Readonly<Record<string, string>> = {
  air_temperature: UNITS.temperature,
  air_temperature_min: UNITS.temperature,
  air_temperature_max: UNITS.temperature,
  wind_speed: UNITS.windSpeed,
  air_pressure_at_sea_level: UNITS.pressure,
  precipitation_amount: UNITS.precipitation,
  relative_humidity: "%",
  cloud_area_fraction: "%",
  wind_from_direction: "degrees",
  ultraviolet_index_clear_sky: "1",
};

const measurements = <const N extends string>(...names: N[]) =>
  Type.Object(
    Object.fromEntries(names.map((name) => [name, Type.Optional(Type.Number())])) as Record<N, TOptional<TNumber>>,
  );
/** MET's schema requires both, yet real 2020 payloads send next_12_hours without details. */
const period = <D extends TSchema>(details: D) =>
  Type.Object({
    summary: Type.Optional(Type.Object({ symbol_code: Type.Optional(Type.String({ minLength: 1 })) })),
    details: Type.Optional(details),
  });

const metTimeStep = Type.Object({
  time: Type.String({ format: "date-time" }),
  data: Type.Object({
    instant: Type.Object({
      details: measurements(
        "air_temperature",
        "wind_speed",
        "relative_humidity",
        "air_pressure_at_sea_level",
        "wind_from_direction",
        "cloud_area_fraction",
        "ultraviolet_index_clear_sky",
      ),
    }),
    next_1_hours: Type.Optional(period(measurements("precipitation_amount"))),
    next_6_hours: Type.Optional(
      period(measurements("precipitation_amount", "air_temperature_min", "air_temperature_max")),
    ),
    // Nothing in it is read; `measurements()` with no names would type its details as numbers it never checks.
    next_12_hours: Type.Optional(period(Type.Unsafe<Record<string, unknown>>({ type: "object", properties: {} }))),
  }),
});

/**
 * The parts of a MET Locationforecast 2.0 `complete` document the service reads; other fields pass unchecked. Every
 * measurement is optional: MET omits variables by area and by range.
 */
const metDocumentSchema = Type.Object({
  type: Type.Unsafe<"Feature">({ const: "Feature" }),
  geometry: Type.Object({
    coordinates: Type.Unsafe<[longitude: number, latitude: number, altitudeMetres?: number]>({
      type: "array",
      minItems: 2,
      maxItems: 3,
      prefixItems: [
        { type: "number", minimum: -180, maximum: 180 },
        { type: "number", minimum: -90, maximum: 90 },
      ],
      items: { type: "number" },
    }),
  }),
  properties: Type.Object({
    meta: Type.Object({
      updated_at: Type.String({ format: "date-time" }),
      units: Type.Unsafe<Record<string, string>>({
        type: "object",
        additionalProperties: { type: "string" },
        properties: Object.fromEntries(Object.entries(EXPECTED_UNITS).map(([name, unit]) => [name, { const: unit }])),
      }),
    }),
    // The current record is the first step, so a document without one has nothing to serve.
    timeseries: Type.Unsafe<[MetTimeStep, ...MetTimeStep[]]>(Type.Array(metTimeStep, { minItems: 1 })),
  }),
});
/** Its timeseries is sorted by time and never empty: parseMetDocument checks both. */
export type MetDocument = Static<typeof metDocumentSchema>;
export type MetTimeStep = Static<typeof metTimeStep>;

// strictTuples off: the altitude is optional, which a strict tuple does not allow. Errors carry no part of the body.
const assertMetDocument = compileAssertion<MetDocument>(metDocumentSchema, "MET document", { strictTuples: false });

/** The parsed body, checked and typed; else an error saying where ("MET document is invalid: ..."). */
export function parseMetDocument(body: unknown): MetDocument {
  const document = assertMetDocument(body);
  readableInstant(document.properties.meta.updated_at, "/properties/meta/updated_at");
  assertStrictlyAscendingTimes(document.properties.timeseries);
  return document;
}

/** Normalising takes the first step as "now" and reads periods in order. */
function assertStrictlyAscendingTimes(timeseries: MetTimeStep[]): void {
  let previous = -Infinity;
  for (const [index, step] of timeseries.entries()) {
    const path = `/properties/timeseries/${index}/time`;
    const instant = readableInstant(step.time, path);
    if (instant <= previous) throw new Error(`MET document is invalid: ${path} is not after the step before it`);
    previous = instant;
  }
}

/** The schema's date-time format also admits forms (a space for the "T") the service cannot read. */
function readableInstant(text: string, path: string): number {
  const instant = readMetInstant(text);
  if (instant === null) throw new Error(`MET document is invalid: ${path} is not an ISO 8601 time`);
  return instant.epochMs;
}
