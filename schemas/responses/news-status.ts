import { arrayOf, bool, dateTime, enumOf, nullable, obj, str } from "../json-schema.ts";
import { DOMAIN_STATUSES } from "../vocabularies.ts";

export const NEWS_TYPES = ["RELEASE", "PRESS_RELEASE", "MONETARY_POLICY_DECISION", "SPEECH", "OTHER"] as const;
export const NEWS_STATES = ["NEW", "UPDATED", "WITHDRAWN"] as const;
export const LINK_STATUSES = ["LINKED", "AMBIGUOUS", "UNLINKED"] as const;

const link = (target: Record<string, ReturnType<typeof str>>) => obj({
  ...target,
  linkStatus: enumOf(LINK_STATUSES),
  evidence: arrayOf(obj({ rule: str(), detail: str() })),
});

export const newsEventsSchema = obj({
  events: arrayOf(obj({
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
      series: arrayOf(link({ slug: str() })),
    }),
  })),
});

const feed = obj({ id: str(), lastReceivedDataAt: nullable(dateTime()), lastSuccessAt: nullable(dateTime()) });

export const statusSchema = obj({
  domains: obj(Object.fromEntries(["weather", "economics", "news"].map((domain) => [
    domain,
    obj({ status: enumOf(DOMAIN_STATUSES), lastReceivedDataAt: nullable(dateTime()), lastSuccessAt: nullable(dateTime()), feeds: arrayOf(feed) }),
  ]))),
});

const runsSchema = arrayOf(obj({
    id: str(), startedAt: dateTime(), finishedAt: nullable(dateTime()), outcome: enumOf(["running", "succeeded", "failed", "partial"]),
    sources: arrayOf(obj({ sourceId: str(), check: enumOf(["successful", "incomplete"]), detail: nullable(str()) })),
}));

export const ingestionRunsSchema = obj({ runs: runsSchema });
export const ingestionTriggerSchema = obj({ started: bool(), runs: runsSchema });
