import type { DomainStatus } from "../../schemas/vocabularies.ts";
import { latestOf } from "../economics/freshness.ts";
import type { FeedCheck } from "../economics/source-checks-reader.ts";
import type { UpstreamHealthSnapshot } from "../weather/upstream-health.ts";

export interface DomainReport {
  status: DomainStatus;
  lastReceivedDataAt: string | null;
  lastSuccessAt: string | null;
  feeds: { id: string; lastReceivedDataAt: string | null; lastSuccessAt: string | null }[];
}

/**
 * A stored domain (economics, news) from its feeds' latest checks: `unknown` when none was ever checked, `ok` when every
 * checked feed succeeded and the data is fresh, `unavailable` when none succeeded, `degraded` otherwise.
 */
export function storedDomainStatus(feeds: FeedCheck[], fresh: boolean): DomainReport {
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
export function weatherDomainStatus(feedId: string, health: UpstreamHealthSnapshot | null): DomainReport {
  const lastSuccessAt = health?.lastSuccessAt ?? null;
  const feeds = [{ id: feedId, lastReceivedDataAt: lastSuccessAt, lastSuccessAt }];
  if (health === null) return { status: "unavailable", lastReceivedDataAt: null, lastSuccessAt: null, feeds };
  const lastFailed = health.lastFailureAt !== null && (lastSuccessAt === null || health.lastFailureAt > lastSuccessAt);
  const status: DomainStatus =
    health.lastAttemptAt === null
      ? "unknown"
      : health.recentAttempts > 0 && health.recentFailures >= health.recentAttempts
        ? "unavailable"
        : lastFailed || health.recentFailures > 0
          ? "degraded"
          : "ok";
  return { status, lastReceivedDataAt: lastSuccessAt, lastSuccessAt, feeds };
}
