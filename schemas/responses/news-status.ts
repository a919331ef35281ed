import { arrayOf, dateTime, enumOf, type JsonSchema, nullable, obj, str } from "../json-schema.ts";
import { DOMAIN_STATUSES } from "../vocabularies.ts";

export const NEWS_TYPES = ["RELEASE", "PRESS_RELEASE", "MONETARY_POLICY_DECISION", "SPEECH", "OTHER"] as const;
export const NEWS_STATES = ["NEW", "UPDATED", "WITHDRAWN"] as const;
export const LINK_STATUSES = ["LINKED", "AMBIGUOUS", "UNLINKED"] as const;

/** The rules that can link an announcement, each stated as evidence on the link it made. */
export const LINK_RULES = [
  "RELEASE_NAME",
  "REFERENCE_PERIOD_IN_TITLE",
  "PUBLICATION_TIME_IN_SCHEDULED_WINDOW",
  "RELEASE_PUBLISHES_SERIES",
  "SOURCE_CALENDAR_MARKED_PUBLISHED",
] as const;

const link = <T extends Record<string, JsonSchema>>(target: T) =>
  obj({
    ...target,
    linkStatus: enumOf(LINK_STATUSES),
    evidence: arrayOf(obj({ rule: enumOf(LINK_RULES), detail: str() })),
  });

export const newsEventsSchema = obj({
  events: arrayOf(
    obj({
      id: str(),
      title: str(),
      url: str(),
      publishedAt: dateTime(),
      source: str(),
      type: enumOf(NEWS_TYPES),
      topic: nullable(str()),
      state: enumOf(NEWS_STATES),
      linkStatus: enumOf(LINK_STATUSES),
      links: obj({
        calendarEvent: nullable(link({ eventId: str() })),
        releaseFamily: nullable(link({ slug: str() })),
        series: arrayOf(
          link({ slug: str(), value: nullable(obj({ referencePeriod: str(), value: nullable(str()) })) }),
        ),
      }),
    }),
  ),
});

const feed = obj({ id: str(), lastReceivedDataAt: nullable(dateTime()), lastSuccessAt: nullable(dateTime()) });

export const domainReportSchema = obj({
  status: enumOf(DOMAIN_STATUSES),
  lastReceivedDataAt: nullable(dateTime()),
  lastSuccessAt: nullable(dateTime()),
  feeds: arrayOf(feed),
});

export const statusSchema = obj({
  domains: obj(Object.fromEntries(["weather", "economics", "news"].map((domain) => [domain, domainReportSchema]))),
});
