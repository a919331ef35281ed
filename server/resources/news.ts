import { LIST_SIZES, PAGE_LIMITS, WINDOWS } from "../../schemas/limits.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { LINK_STATUSES, NEWS_STATES, NEWS_TYPES } from "../../schemas/responses/news-status.ts";
import { NEWS_FEEDS } from "../../schemas/vocabularies.ts";
import { type NewsAttributionFacts, newsPublishers } from "../economics/attribution.ts";
import { parseDateRange } from "../economics/date-range.ts";
import { dataStatusChangesAt, dataStatusOf, latestOf } from "../economics/freshness.ts";
import { readIndex, requireIndex } from "../economics/index-access.ts";
import { readFeedChecks } from "../economics/source-checks-reader.ts";
import { cursorAfter, decodeCursor, parseEnumList, parseLimit, parseList, parseZone } from "../http/params.ts";
import type { RouteHandler } from "../http/route-handler.ts";
import { newsUpdatedAt, readNews } from "../news/news-reader.ts";
import type { IndexStorage } from "../storage/index-storage.ts";

export function newsHandlers(
  storage: IndexStorage,
  registrySource: () => BuiltRegistry | null,
): Record<string, RouteHandler> {
  return {
    "public.news.events": ({ query, now }) => {
      const range = parseDateRange(query.get("from"), query.get("to"), now, {
        zone: parseZone(query.get("tz")),
        maxDays: WINDOWS.publicNewsMaxDays,
        defaultDaysBack: WINDOWS.publicNewsDaysBack,
        defaultDaysAhead: 0,
        errorCode: "VALIDATION_FAILED",
      });
      const list = (name: string) => parseList(query.get(name), LIST_SIZES.publicFilter, name);
      const filter = {
        from: range.from.toUTC().toISO()!,
        to: range.toInclusive.toUTC().toISO()!,
        sources: list("source"),
        releaseFamilies: list("releaseFamily"),
        series: list("series"),
        countries: list("country")?.map((code) => code.toUpperCase()) ?? null,
        topics: list("topic")?.map((topic) => topic.toLowerCase()) ?? null,
        states: parseEnumList(query.get("state"), NEWS_STATES, LIST_SIZES.publicFilter, "state"),
        linkStatuses: parseEnumList(query.get("linkStatus"), LINK_STATUSES, LIST_SIZES.publicFilter, "linkStatus"),
        types: parseEnumList(query.get("type"), NEWS_TYPES, LIST_SIZES.publicFilter, "type"),
      };
      const limit = parseLimit(query.get("limit"), PAGE_LIMITS.publicNews);
      const offset = decodeCursor(query.get("cursor"));
      const index = requireIndex(storage);
      const page = readIndex(() => readNews(index.db, filter, offset, limit));
      const feeds = readIndex(() => readFeedChecks(index.db, NEWS_FEEDS));
      const lastSuccess = latestOf(feeds.map((feed) => feed.lastSuccessAt));
      return {
        data: { events: page.records },
        meta: {
          dataUpdatedAt: readIndex(() => newsUpdatedAt(index.db)),
          dataStatus: dataStatusOf(lastSuccess, now),
          nextCursor: cursorAfter(offset, page.records.length, page.more),
          // The records are the ones publish-news.ts stored, which carry at least these facts.
          attributionRecords: newsPublishers(page.records as NewsAttributionFacts[], registrySource()).records(),
        },
        validUntil: Math.min(range.movesAt, dataStatusChangesAt(lastSuccess, now)),
      };
    },
  };
}
