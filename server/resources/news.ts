import { LIST_SIZES, PAGE_LIMITS, WINDOWS } from "../../schemas/limits.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { LINK_STATUSES, NEWS_STATES, NEWS_TYPES } from "../../schemas/responses/news-status.ts";
import { NEWS_FEEDS } from "../../schemas/vocabularies.ts";
import { newsPublishers } from "../economics/attribution.ts";
import { parseDateRange } from "../economics/date-range.ts";
import { dataStatusChangesAt, dataStatusOf, latestOf, readFeedChecks } from "../economics/freshness.ts";
import { cursorAfter, decodeCursor, parseLimit, parseZone } from "../http/params.ts";
import type { RouteHandler } from "../http/route-handler.ts";
import { NEWS_SERIES, newsUpdatedAt, publishedWindow, readNews } from "../news/news-reader.ts";
import { type IndexStorage, requireIndex, withStorageErrors } from "../storage/index-storage.ts";
import { type ListParameter, recordFilter, upperCase } from "../storage/record-pages.ts";

const max = LIST_SIZES.publicFilter;
const NEWS_FILTERS: ListParameter[] = [
  { name: "source", column: "source", max },
  { name: "releaseFamily", column: "release_slug", max },
  { name: "series", column: "id", max, linked: NEWS_SERIES },
  { name: "country", column: "country", max, normalise: upperCase },
  { name: "topic", column: "topic", max, normalise: (topic) => topic.toLowerCase() },
  { name: "state", column: "state", max, vocabulary: NEWS_STATES },
  { name: "linkStatus", column: "link_status", max, vocabulary: LINK_STATUSES },
  { name: "type", column: "type", max, vocabulary: NEWS_TYPES },
];

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
      const filter = recordFilter(publishedWindow(range), query, NEWS_FILTERS);
      const limit = parseLimit(query.get("limit"), PAGE_LIMITS.publicNews);
      const offset = decodeCursor(query.get("cursor"));
      const index = requireIndex(storage);
      const page = withStorageErrors(() => readNews(index.db, filter, offset, limit));
      const feeds = withStorageErrors(() => readFeedChecks(index.db, NEWS_FEEDS));
      const lastSuccess = latestOf(feeds.map((feed) => feed.lastSuccessAt));
      return {
        data: { events: page.records },
        meta: {
          dataUpdatedAt: withStorageErrors(() => newsUpdatedAt(index.db)),
          dataStatus: dataStatusOf(lastSuccess, now),
          nextCursor: cursorAfter(offset, page.records.length, page.more),
          attributionRecords: newsPublishers(page.records, registrySource()).records(),
        },
        validUntil: Math.min(range.movesAt, dataStatusChangesAt(lastSuccess, now)),
      };
    },
  };
}
