import { CALENDAR_SOURCES, type DomainStatus, NEWS_FEEDS, OBSERVATION_APIS } from "../../schemas/vocabularies.ts";
import { dataStatusChangesAt, dataStatusOf, type FeedCheck, latestOf, readFeedChecks } from "../economics/freshness.ts";
import { NO_ATTRIBUTION } from "../http/attribution-records.ts";
import type { RouteHandler } from "../http/route-handler.ts";
import { type IndexStorage, withStorageErrors } from "../storage/index-storage.ts";
import type { WeatherCache } from "../weather/cache.ts";
import { MET_SOURCE } from "../weather/provenance.ts";
import type { StoredPayload } from "../weather/stored-payload.ts";
import type { UpstreamHealthSnapshot } from "../weather/upstream-health.ts";

const ECONOMICS_FEEDS = [...CALENDAR_SOURCES, ...OBSERVATION_APIS];

/** What this instance itself knows of each domain's freshness; no internal counter is published. */
export function statusHandlers(
  storage: IndexStorage,
  weather: WeatherCache<StoredPayload> | null,
): Record<string, RouteHandler> {
  const weatherHealth = () => (weather ? weather.upstreamHealth() : null);
  return {
    "public.status": ({ now }) => {
      const index = storage.current();
      let validUntil = Number.POSITIVE_INFINITY;
      // Each domain is fresh by its own feeds' last success, as the news route's dataStatus is: a failing feed of one
      // domain (which makes the run partial, not succeeded) must not make the other domain's data stale.
      const domain = (sources: readonly string[]) => {
        const feeds = withStorageErrors(() => readFeedChecks(index?.db ?? null, sources));
        const lastSuccess = latestOf(feeds.map((feed) => feed.lastSuccessAt));
        validUntil = Math.min(validUntil, dataStatusChangesAt(lastSuccess, now));
        return storedDomainStatus(feeds, dataStatusOf(lastSuccess, now) === "fresh");
      };
      const economics = domain(ECONOMICS_FEEDS);
      const news = domain(NEWS_FEEDS);
      const weatherNow = weatherDomainStatus(MET_SOURCE.id, weatherHealth());
      // The service's own account of its feeds (check results and times), not any publisher's data. Kept for the
      // index's generation until a stored domain turns stale, while the weather report stays the same.
      return {
        data: { domains: { weather: weatherNow, economics, news } },
        staticMeta: NO_ATTRIBUTION,
        validUntil,
        // The weather report is made of its status and last success alone.
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

interface DomainReport {
  status: DomainStatus;
  lastReceivedDataAt: string | null;
  lastSuccessAt: string | null;
  feeds: { id: string; lastReceivedDataAt: string | null; lastSuccessAt: string | null }[];
}

/**
 * A stored domain (economics, news) from its feeds' latest checks: `unknown` when none was ever checked, `ok` when every
 * checked feed succeeded and the data is fresh, `unavailable` when none succeeded, `degraded` otherwise.
 */
function storedDomainStatus(feeds: FeedCheck[], fresh: boolean): DomainReport {
  const checked = feeds.filter((feed) => feed.latestCheck !== "not_recorded");
  const succeeded = checked.filter((feed) => feed.latestCheck === "successful");
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
    lastSuccessAt: latestOf(feeds.map((feed) => feed.lastSuccessAt)),
    feeds: feeds.map(({ id, lastReceivedDataAt, lastSuccessAt }) => ({ id, lastReceivedDataAt, lastSuccessAt })),
  };
}

/**
 * Weather from this process's recent upstream outcomes: `unknown` before any call, `unavailable` when every recent call
 * failed, `degraded` when some did or the last one did, `ok` otherwise. The failure counts themselves stay internal.
 */
function weatherDomainStatus(feedId: string, health: UpstreamHealthSnapshot | null): DomainReport {
  const lastSuccessAt = health?.lastSuccessAt ?? null;
  const feeds = [{ id: feedId, lastReceivedDataAt: lastSuccessAt, lastSuccessAt }];
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
