import { CALENDAR_SOURCES, NEWS_FEEDS, OBSERVATION_APIS } from "../../schemas/vocabularies.ts";
import { dataStatusChangesAt, dataStatusOf, latestOf } from "../economics/freshness.ts";
import { readIndex } from "../economics/index-access.ts";
import { readFeedChecks } from "../economics/source-checks-reader.ts";
import { NO_ATTRIBUTION } from "../http/attribution-records.ts";
import type { RouteHandler } from "../http/route-handler.ts";
import { type DomainReport, storedDomainStatus, weatherDomainStatus } from "../news/domain-status.ts";
import type { IndexStorage, OpenIndex } from "../storage/index-storage.ts";
import type { WeatherCache } from "../weather/cache.ts";
import { MET_SOURCE } from "../weather/provenance.ts";
import type { StoredPayload } from "../weather/stored-payload.ts";

const ECONOMICS_FEEDS = [...CALENDAR_SOURCES, ...OBSERVATION_APIS];

/** What this instance itself knows of each domain's freshness; no internal counter is published. */
export function statusHandlers(
  storage: IndexStorage,
  weather: WeatherCache<StoredPayload> | null,
): Record<string, RouteHandler> {
  // The stored domains change only with the index or when their data turns stale, so they are read once for both.
  let stored: {
    serial: number;
    index: OpenIndex | null;
    builtAt: number;
    validUntil: number;
    economics: DomainReport;
    news: DomainReport;
  } | null = null;
  let storedSerial = 0;
  const storedDomains = (now: number) => {
    const index = storage.current();
    if (stored && stored.index === index && now >= stored.builtAt && now < stored.validUntil) return stored;
    let validUntil = Number.POSITIVE_INFINITY;
    // Each domain is fresh by its own feeds' last success, as the news route's dataStatus is: a failing feed of one
    // domain (which makes the run partial, not succeeded) must not make the other domain's data stale.
    const domain = (sources: readonly string[]) => {
      const feeds = readIndex(() => readFeedChecks(index?.db ?? null, sources));
      const lastSuccess = latestOf(feeds.map((feed) => feed.lastSuccessAt));
      validUntil = Math.min(validUntil, dataStatusChangesAt(lastSuccess, now));
      return storedDomainStatus(feeds, dataStatusOf(lastSuccess, now) === "fresh");
    };
    stored = {
      serial: ++storedSerial,
      index,
      builtAt: now,
      economics: domain(ECONOMICS_FEEDS),
      news: domain(NEWS_FEEDS),
      validUntil,
    };
    return stored;
  };

  return {
    "public.status": ({ now }) => {
      const { serial, economics, news } = storedDomains(now);
      const weatherReport = weatherDomainStatus(MET_SOURCE.id, weather ? weather.upstreamHealth() : null);
      // The weather report is made of its status and last success; the stored domains of their reading.
      const answerKey = `public.status\n${serial}\n${weatherReport.status}\n${weatherReport.lastSuccessAt}`;
      // The service's own account of its feeds (check results and times), not any publisher's data.
      return { data: { domains: { weather: weatherReport, economics, news } }, staticMeta: NO_ATTRIBUTION, answerKey };
    },
  };
}
