import { arrayOf, bool, date, dateTime, enumOf, int, nullable, obj, str } from "../json-schema.ts";
import {
  CALENDAR_SOURCES, EVENT_STATUSES, IMPORTANCE_LEVELS, PUBLISHERS, REFERENCE_PERIOD_PATTERN, REGIONS, TIME_PRECISIONS,
} from "../vocabularies.ts";
import { REFERENCE_PERIOD_KINDS } from "../reference-periods.ts";
import { seriesDefinitionSchema } from "./registry.ts";

/** Evaluated per request from the clock (spec "States and transitions"); documented in the OpenAPI description. */
export const DERIVED_STATES = ["UPCOMING", "DUE_TODAY", "PAST_DUE_AWAITING_CONFIRMATION", "CONFIRMED_PUBLISHED", "CANCELLED_AT_SOURCE"] as const;

const periodCode = str({ pattern: REFERENCE_PERIOD_PATTERN });
const attribution = obj({ text: str(), required: bool() });

export const referencePeriodSchema = nullable(obj({
  kind: enumOf(REFERENCE_PERIOD_KINDS),
  code: periodCode,
  startDate: date(),
  endDate: date(),
}));

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
  derivedState: enumOf(DERIVED_STATES),
  publication: obj({
    releasedAt: nullable(dateTime()),
    detectedAt: nullable(dateTime()),
    confirmed: bool(),
    evidence: arrayOf(evidence),
    officialPublication: nullable(obj({ url: str() })),
  }),
  values: obj({
    availability: enumOf(["AVAILABLE", "NOT_YET_AVAILABLE", "NOT_LINKED"]),
    actual: nullable(obj({ seriesSlug: str(), referencePeriod: periodCode, value: nullable(str()) })),
    previous: nullable(obj({ seriesSlug: str(), referencePeriod: periodCode, value: nullable(str()) })),
  }),
  importance: enumOf(IMPORTANCE_LEVELS),
  importanceBasis: str(),
  sources: arrayOf(obj({ sourceId: enumOf(CALENDAR_SOURCES), sourceEventId: str(), title: str() })),
  attribution,
};

const credentialedLocal = { localDate: date(), localTime: nullable(str()), localTimeZone: str() };

export const credentialedEventSchema = obj({ ...eventFields, ...credentialedLocal }, Object.keys(credentialedLocal));
export const publicEventSchema = obj(
  { ...eventFields, local: obj({ date: date(), time: nullable(str()), timeZone: str() }) },
  ["local"],
);

export const eventsListSchema = obj({ entries: arrayOf(credentialedEventSchema) });
export const credentialedCalendarSchema = obj({ days: arrayOf(obj({ date: date(), entries: arrayOf(credentialedEventSchema) })) });
export const publicCalendarSchema = obj({ days: arrayOf(obj({ date: date(), events: arrayOf(publicEventSchema) })) });

const observation = obj({
  referencePeriod: periodCode,
  value: nullable(str()),
  publicationStatus: nullable(str()),
  revisionCount: int({ minimum: 0 }),
  isRevision: bool(),
  previousValue: nullable(str()),
  sourceUpdatedAt: nullable(dateTime()),
  ingestedAt: dateTime(),
});

export const observationsSchema = obj({
  series: seriesDefinitionSchema,
  observations: arrayOf(observation),
});

export const releasesSchema = obj({
  releases: arrayOf(obj({
    series: obj({
      slug: str(), family: str(), country: nullable(str()), region: nullable(enumOf(REGIONS)), frequency: str(),
      unit: obj({ code: str(), scale: int() }), seasonalAdjustment: str(), transformation: str(), officialSeriesUrl: str(),
    }),
    availability: enumOf(["AVAILABLE", "UNAVAILABLE"]),
    referencePeriod: nullable(obj({ code: periodCode })),
    value: nullable(str()),
    publicationStatus: nullable(str()),
    publishedAt: nullable(dateTime()),
    sourceUpdatedAt: nullable(dateTime()),
    ingestedAt: nullable(dateTime()),
    revision: nullable(obj({ count: int({ minimum: 0 }), isRevision: bool(), previousValue: nullable(str()) })),
    previous: nullable(obj({ referencePeriod: periodCode, value: nullable(str()), publicationStatus: nullable(str()) })),
    periods: arrayOf(obj({ referencePeriod: periodCode, value: nullable(str()), publicationStatus: nullable(str()), revisionCount: int({ minimum: 0 }) })),
    derived: obj({ formula: str(), inputs: arrayOf(obj({ sourceSeriesId: str(), referencePeriod: periodCode, value: str() })) }),
    attribution,
    links: obj({ observations: str(), calendar: str() }),
  }, ["derived"])),
});
