import {
  arrayOf,
  bool,
  date,
  dateTime,
  enumOf,
  int,
  type JsonSchema,
  nullable,
  obj,
  oneOf,
  str,
} from "../json-schema.ts";
import { REFERENCE_PERIOD_KINDS } from "../reference-periods.ts";
import {
  CALENDAR_SOURCES,
  EVENT_CHANGE_FIELDS,
  EVENT_STATUSES,
  IMPORTANCE_LEVELS,
  PUBLISHERS,
  REFERENCE_PERIOD_PATTERN,
  REGIONS,
  TIME_PRECISIONS,
  VALUE_DERIVATIONS,
  VALUE_TRANSFORMATIONS,
} from "../vocabularies.ts";
import { seriesDefinitionSchema } from "./registry.ts";

/** Evaluated per request from the clock (spec "States and transitions"); documented in the OpenAPI description. */
export const DERIVED_STATES = [
  "UPCOMING",
  "DUE_TODAY",
  "PAST_DUE_AWAITING_CONFIRMATION",
  "CONFIRMED_PUBLISHED",
  "CANCELLED_AT_SOURCE",
] as const;

/**
 * An event's `values.availability`: `AVAILABLE` (the release's value is held), `NOT_YET_AVAILABLE` (the release is
 * still to come), `UNAVAILABLE` (the release is past, or confirmed, and no value of it is held: not ingested, or the
 * publisher published the period without one, which `actual` then shows), `NOT_LINKED` (no reference period is known,
 * or the release publishes no registered series).
 */
export const EVENT_VALUE_AVAILABILITIES = ["AVAILABLE", "NOT_YET_AVAILABLE", "UNAVAILABLE", "NOT_LINKED"] as const;

const periodCode = str({ pattern: REFERENCE_PERIOD_PATTERN });
const attribution = obj({ text: str(), required: bool() });

/** Reference periods of served values: only the spec's forms, `YYYY-MM` and `YYYY-Q<n>`. */
const VALUE_PERIOD_PATTERN = "^[0-9]{4}-(0[1-9]|1[0-2]|Q[1-4])$";
const valuePeriod = str({ pattern: VALUE_PERIOD_PATTERN });

const archivedDocument = obj({ sha256: str({ pattern: "^[0-9a-f]{64}$" }), fetchedAt: nullable(dateTime()) });

/** Provenance of every served value (schemas/value-provenance.ts). */
const provenance = obj({
  sourceId: nullable(str()),
  adapter: nullable(str()),
  derivation: enumOf(VALUE_DERIVATIONS),
  transformation: arrayOf(enumOf(VALUE_TRANSFORMATIONS)),
  document: nullable(archivedDocument),
});

/** A value the service computed: its formula and the input vintages it was computed from (cli/ingest/derive-series.ts). */
const derived = obj({
  formula: str(),
  inputs: arrayOf(
    obj(
      {
        sourceSeriesId: str(),
        referencePeriod: valuePeriod,
        sourcePeriod: date(),
        value: nullable(str()),
        publicationStatus: nullable(str()),
        vintage: int({ minimum: 1 }),
        document: nullable(archivedDocument),
      },
      // Inputs recorded before the status was kept have none.
      ["sourcePeriod", "publicationStatus"],
    ),
  ),
});

/** An event's value: the vintage the event's release produced, with its provenance and the later vintages that revised it. */
const eventValue = nullable(
  obj({
    seriesSlug: str(),
    referencePeriod: valuePeriod,
    value: nullable(str()),
    publicationStatus: nullable(str()),
    publisherNote: nullable(str()),
    vintage: int({ minimum: 1 }),
    recordedAt: nullable(dateTime()),
    provenance,
    revisions: arrayOf(
      obj({
        vintage: int({ minimum: 2 }),
        value: nullable(str()),
        publicationStatus: nullable(str()),
        recordedAt: nullable(dateTime()),
      }),
    ),
  }),
);

export const referencePeriodSchema = nullable(
  obj({
    kind: enumOf(REFERENCE_PERIOD_KINDS),
    code: periodCode,
    startDate: date(),
    endDate: date(),
  }),
);

const evidence = obj({
  kind: enumOf(["PUBLISHER_NOTICE", "VERIFIED_VALUE", "SOURCE_CALENDAR"]),
  observedAt: dateTime(),
  detail: str(),
  url: nullable(str()),
});

const eventFields = {
  id: str(),
  title: str(),
  release: obj({ slug: str(), publisher: enumOf(PUBLISHERS), officialPageUrl: str() }),
  country: nullable(str()),
  region: nullable(enumOf(REGIONS)),
  currency: str(),
  category: str(),
  referencePeriod: referencePeriodSchema,
  scheduledDate: date(),
  scheduledAt: nullable(dateTime()),
  timePrecision: enumOf(TIME_PRECISIONS),
  sourceTimezone: str(),
  status: enumOf(EVENT_STATUSES),
  updatedAt: dateTime(),
  derivedState: enumOf(DERIVED_STATES),
  publication: obj({
    releasedAt: nullable(dateTime()),
    detectedAt: nullable(dateTime()),
    confirmed: bool(),
    evidence: arrayOf(evidence),
    officialPublication: nullable(obj({ url: str() })),
  }),
  values: obj({
    availability: enumOf(EVENT_VALUE_AVAILABILITIES),
    actual: eventValue,
    previous: eventValue,
  }),
  importance: enumOf(IMPORTANCE_LEVELS),
  importanceBasis: str(),
  sources: arrayOf(obj({ sourceId: enumOf(CALENDAR_SOURCES), sourceEventId: str(), title: str() })),
  changes: arrayOf(
    obj({
      field: enumOf(EVENT_CHANGE_FIELDS),
      from: nullable(str()),
      to: nullable(str()),
      detectedAt: dateTime(),
      document: nullable(archivedDocument),
    }),
  ),
  attribution,
};

const credentialedLocal = { localDate: date(), localTime: nullable(str()), localTimeZone: str() };

export const credentialedEventSchema = obj({ ...eventFields, ...credentialedLocal }, [
  "localDate",
  "localTime",
  "localTimeZone",
]);
export const publicEventSchema = obj(
  { ...eventFields, local: obj({ date: date(), time: nullable(str()), timeZone: str() }) },
  ["local"],
);

export const eventsListSchema = obj({ entries: arrayOf(credentialedEventSchema) });
export const credentialedCalendarSchema = obj({
  days: arrayOf(obj({ date: date(), entries: arrayOf(credentialedEventSchema) })),
});
export const publicCalendarSchema = obj({ days: arrayOf(obj({ date: date(), events: arrayOf(publicEventSchema) })) });

const observation = obj(
  {
    referencePeriod: valuePeriod,
    value: nullable(str()),
    publicationStatus: nullable(str()),
    publisherNote: nullable(str()),
    revisionCount: int({ minimum: 0 }),
    isRevision: bool(),
    previousValue: nullable(str()),
    sourceUpdatedAt: nullable(dateTime()),
    ingestedAt: dateTime(),
    provenance,
    derived,
  },
  ["derived"],
);

export const observationsSchema = obj({
  series: seriesDefinitionSchema,
  observations: arrayOf(observation),
});

/** An observation as the service held it at `asOf`: which vintage it was, and when the service recorded it. */
const observationAsOf = obj(
  {
    ...(observation.properties as Record<string, JsonSchema>),
    vintage: int({ minimum: 1 }),
    recordedAt: nullable(dateTime()),
  },
  ["derived"],
);

/** One vintage of a period as `vintages=all` lists it: the run that recorded it and when, with its provenance. */
const vintage = obj(
  {
    sequence: int({ minimum: 1 }),
    value: nullable(str()),
    publicationStatus: nullable(str()),
    publisherNote: nullable(str()),
    sourceUpdatedAt: nullable(dateTime()),
    recordedAt: nullable(dateTime()),
    runId: str(),
    provenance,
    derived,
  },
  ["derived"],
);

const closed = <S extends JsonSchema>(schema: S): S => ({ ...schema, additionalProperties: false });

const observationsAsOfSchema = obj({
  series: seriesDefinitionSchema,
  asOf: dateTime(),
  observations: arrayOf(observationAsOf),
});
const vintagesSchema = obj({
  series: seriesDefinitionSchema,
  asOf: nullable(dateTime()),
  periods: arrayOf(obj({ referencePeriod: valuePeriod, vintages: arrayOf(vintage) })),
});

/** The credentialed observations route: current vintages, the vintages current at `asOf`, or every vintage. */
export const seriesObservationsSchema = oneOf(
  closed(observationsSchema),
  closed(observationsAsOfSchema),
  closed(vintagesSchema),
);

export const releasesSchema = obj({
  releases: arrayOf(
    obj(
      {
        series: obj({
          slug: str(),
          family: str(),
          country: nullable(str()),
          region: nullable(enumOf(REGIONS)),
          frequency: str(),
          unit: obj({ code: str(), scale: int() }),
          seasonalAdjustment: str(),
          transformation: str(),
          officialSeriesUrl: str(),
        }),
        availability: enumOf(["AVAILABLE", "UNAVAILABLE"]),
        referencePeriod: nullable(obj({ code: valuePeriod })),
        value: nullable(str()),
        publicationStatus: nullable(str()),
        publisherNote: nullable(str()),
        publishedAt: nullable(dateTime()),
        sourceUpdatedAt: nullable(dateTime()),
        ingestedAt: nullable(dateTime()),
        revision: nullable(obj({ count: int({ minimum: 0 }), isRevision: bool(), previousValue: nullable(str()) })),
        previous: nullable(
          obj({
            referencePeriod: valuePeriod,
            value: nullable(str()),
            publicationStatus: nullable(str()),
            publisherNote: nullable(str()),
            provenance,
          }),
        ),
        periods: arrayOf(
          obj({
            referencePeriod: valuePeriod,
            value: nullable(str()),
            publicationStatus: nullable(str()),
            publisherNote: nullable(str()),
            revisionCount: int({ minimum: 0 }),
            provenance,
          }),
        ),
        provenance: nullable(provenance),
        derived,
        attribution,
        links: obj({ observations: str(), calendar: str() }),
      },
      ["derived"],
    ),
  ),
});
