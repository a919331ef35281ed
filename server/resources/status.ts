import type { Static } from "../../schemas/json-schema.ts";
import type { domainReportSchema } from "../../schemas/responses/news-status.ts";
import { CALENDAR_SOURCES, type DomainStatus, NEWS_FEEDS, OBSERVATION_APIS } from "../../schemas/vocabularies.ts";
import { dataStatusChangesAt, dataStatusOf, type FeedCheck, latestOf, readFeedChecks } from "../economics/freshness.ts";
import { NO_ATTRIBUTION } from "../http/attribution-records.ts";
import type { RouteHandlers } from "../http/route-handler.ts";
import { type IndexStorage, withStorageErrors } from "../storage/index-storage.ts";
import type { WeatherCache } from "../weather/cache.ts";
import { MET_SOURCE } from "../weather/provenance.ts";
import type { StoredPayload } from "../weather/stored-payload.ts";
import type { UpstreamHealthSnapshot } from "../weather/upstream-health.ts";

const ECONOMICS_FEEDS = [...CALENDAR_SOURCES, ...OBSERVATION_APIS];

/** What this instance itself knows of each domain's freshness; no internal counter is published. */
export function statusHandlers(storage: IndexStorage, weather: WeatherCache<StoredPayload> | null): RouteHandlers {
  const weatherHealth = () => (weather ? weather.upstreamHealth() : null);
  return {
    "public.status": ({ now }) => {
      const db = storage.current()?.db ?? null;
      // Each domain is fresh by its own feeds' last success: one domain's failing feed must not make the other stale.
      const domain = (sources: readonly string[]) =>
        storedDomainStatus(
          withStorageErrors(() => readFeedChecks(db, sources)),
          now,
        );
      const economics = domain(ECONOMICS_FEEDS);
      const news = domain(NEWS_FEEDS);
      const weatherNow = weatherDomainStatus(weatherHealth());
      // The service's own account, no publisher's data; kept until a domain turns stale or the weather report changes.
      return {
        data: { domains: { weather: weatherNow, economics, news } },
        staticMeta: NO_ATTRIBUTION,
        validUntil: Math.min(...[economics, news].map((report) => dataStatusChangesAt(report.lastSuccessAt, now))),
        stillCurrent: () => {
          const health = weatherHealth();
          return (
            weatherStatusOf(health) === weatherNow.status &&
            (health?.lastSuccessAt ?? null) === weatherNow.lastSuccessAt
          );
        },
      };
    },
  };
}

type DomainReport = Static<typeof domainReportSchema>;

/**
 * A stored domain (economics, news) from its feeds' latest checks: `unknown` when none was ever checked, `ok` when every
 * checked feed succeeded and the data is fresh, `unavailable` when none succeeded, `degraded` otherwise.
 */
function storedDomainStatus(feeds: FeedCheck[], now: number): DomainReport {
  const checked = feeds.filter((feed) => feed.latestCheck !== "not_recorded");
  const succeeded = checked.filter((feed) => feed.latestCheck === "successful");
  const lastSuccessAt = latestOf(feeds.map((feed) => feed.lastSuccessAt));
  const fresh = dataStatusOf(lastSuccessAt, now) === "fresh";
  const status: DomainStatus =
    checked.length === 0
      ? "unknown"
      : succeeded.length === 0
        ? "unavailable"
        : succeeded.length === checked.length && fresh
          ? "ok"
          : "degraded";
  return {
    status,
    lastReceivedDataAt: latestOf(feeds.map((feed) => feed.lastReceivedDataAt)),
    lastSuccessAt,
    feeds: feeds.map(({ id, lastReceivedDataAt, lastSuccessAt }) => ({ id, lastReceivedDataAt, lastSuccessAt })),
  };
}

/**
 * Weather from this process's recent upstream outcomes: `unknown` before any call, `unavailable` when every recent call
 * failed, `degraded` when some did or the last one did, `ok` otherwise. The failure counts themselves stay internal.
 */
function weatherDomainStatus(health: UpstreamHealthSnapshot | null): DomainReport {
  const lastSuccessAt = health?.lastSuccessAt ?? null;
  const feeds = [{ id: MET_SOURCE.id, lastReceivedDataAt: lastSuccessAt, lastSuccessAt }];
  return { status: weatherStatusOf(health), lastReceivedDataAt: lastSuccessAt, lastSuccessAt, feeds };
}

function weatherStatusOf(health: UpstreamHealthSnapshot | null): DomainStatus {
  if (health === null) return "unavailable";
  const { lastSuccessAt, lastFailureAt } = health;
  const lastFailed = lastFailureAt !== null && (lastSuccessAt === null || lastFailureAt > lastSuccessAt);
  return health.lastAttemptAt === null
    ? "unknown"
    : health.recentAttempts > 0 && health.recentFailures >= health.recentAttempts
      ? "unavailable"
      : lastFailed || health.recentFailures > 0
        ? "degraded"
        : "ok";
}
