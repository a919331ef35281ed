import { ERROR_CODES } from "../errors.ts";
import { arrayOf, bool, dateTime, enumOf, int, type JsonSchema, nullable, obj, str } from "../json-schema.ts";
import { CHECK_RESULTS, DATA_STATUSES } from "../vocabularies.ts";

/** One publisher's licensing obligation for the data in an answer (spec `attributionRecords[]`). */
export const attributionRecordSchema = {
  ...obj({
    sourceId: str(),
    required: bool(),
    licenseName: str(),
    termsUrl: str({ pattern: "^https://" }),
    modifiedByService: bool(),
  }),
  additionalProperties: false,
};

/**
 * Fields of `meta` present on every success body (spec "Success envelope"): freshness, and licensing, which every
 * answer carries (an empty list where it serves no publisher's data).
 */
const baseMeta = {
  requestId: str(),
  generatedAt: dateTime(),
  cached: bool(),
  cacheAgeSeconds: int({ minimum: 0 }),
  stale: bool(),
  degraded: bool(),
  attributionRecords: arrayOf(attributionRecordSchema),
} satisfies Record<string, JsonSchema>;

/** For the server's types: the fields every `meta` has, and one attribution record's. */
export type BaseMetaFields = typeof baseMeta;
export type AttributionRecordFields = typeof attributionRecordSchema;

export const canonicalUnitsSchema = obj({
  temperature: str(),
  windSpeed: str(),
  pressure: str(),
  precipitation: str(),
});

/** Route-specific `meta` fields, by name; a route lists the ones it sends. */
export const META_FIELDS = {
  fetchedAt: dateTime(),
  coordinatePrecision: str(),
  canonicalUnits: canonicalUnitsSchema,
  nextCursor: nullable(str()),
  truncated: bool(),
  totalMatching: int({ minimum: 0 }),
  dayCount: int({ minimum: 0 }),
  lastIngestedAt: nullable(dateTime()),
  lastSuccessfulIngestionAt: nullable(dateTime()),
  dataUpdatedAt: nullable(dateTime()),
  dataStatus: enumOf(DATA_STATUSES),
  sourceChecks: arrayOf(
    obj({
      sourceId: str(),
      lastSuccessAt: nullable(dateTime()),
      latestCheck: enumOf([...CHECK_RESULTS, "not_recorded"]),
    }),
  ),
} satisfies Record<string, JsonSchema>;

export type MetaFieldName = keyof typeof META_FIELDS;

/** `meta.truncated` may appear on any paged answer cut at the response ceiling. */
export function envelopeSchema(data: JsonSchema, metaFields: readonly MetaFieldName[]): JsonSchema {
  const routeMeta = Object.fromEntries(metaFields.map((name) => [name, META_FIELDS[name]]));
  const meta = obj({ ...baseMeta, ...routeMeta, truncated: META_FIELDS.truncated }, ["truncated"]);
  return { ...obj({ data, meta }), additionalProperties: false };
}

export const errorBodySchema: JsonSchema = {
  ...obj({
    error: { ...obj({ code: enumOf(ERROR_CODES), message: str(), requestId: str() }), additionalProperties: false },
  }),
  additionalProperties: false,
};
