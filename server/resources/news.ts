import { LIST_SIZES, PAGE_LIMITS, WINDOWS } from "../../schemas/limits.ts";
import type { ServedNewsRecord } from "../../schemas/news-record.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { LINK_STATUSES, NEWS_STATES, NEWS_TYPES } from "../../schemas/responses/news-status.ts";
import { NEWS_FEEDS } from "../../schemas/vocabularies.ts";
import { newsPublishers } from "../economics/attribution.ts";
import { dataStatusChangesAt, dataStatusOf, latestOf, readFeedChecks } from "../economics/freshness.ts";
import { cursorAfter } from "../http/params.ts";
import type { RouteHandlers } from "../http/route-handler.ts";
import { NEWS_SERIES, newsUpdatedAt, publishedWindow, readNews } from "../news/news-reader.ts";
import { type IndexStorage, withStorageErrors } from "../storage/index-storage.ts";
import { upperCase } from "../storage/record-pages.ts";
import { type Listing, readListing } from "./record-listing.ts";

const max = LIST_SIZES.publicFilter;

/** The news route's window, filters and page (spec news events). */
const NEWS: Listing<ServedNewsRecord> = {
  window: WINDOWS.publicNews,
  rangeError: "VALIDATION_FAILED",
  within: publishedWindow,
  page: PAGE_LIMITS.publicNews,
  read: readNews,
  filters: [
    { name: "source", column: "source", max },
    { name: "releaseFamily", column: "release_slug", max },
    { name: "series", column: "id", max, linked: NEWS_SERIES },
    { name: "country", column: "country", max, normalise: upperCase },
    { name: "topic", column: "topic", max, normalise: (topic) => topic.toLowerCase() },
    { name: "state", column: "state", max, vocabulary: NEWS_STATES },
    { name: "linkStatus", column: "link_status", max, vocabulary: LINK_STATUSES },
    { name: "type", column: "type", max, vocabulary: NEWS_TYPES },
  ],
};

export function newsHandlers(storage: IndexStorage, registrySource: () => BuiltRegistry | null): RouteHandlers {
  return {
    "public.news.events": ({ query, now }) => {
      const { range, index, offset, records, more } = readListing(storage, query, now, NEWS);
      const feeds = withStorageErrors(() => readFeedChecks(index.db, NEWS_FEEDS));
      const lastSuccess = latestOf(feeds.map((feed) => feed.lastSuccessAt));
      return {
        data: { events: records },
        meta: {
          dataUpdatedAt: withStorageErrors(() => newsUpdatedAt(index.db)),
          dataStatus: dataStatusOf(lastSuccess, now),
          nextCursor: cursorAfter(offset, records.length, more),
          attributionRecords: newsPublishers(records, registrySource()).records(),
        },
        validUntil: Math.min(range.movesAt, dataStatusChangesAt(lastSuccess, now)),
      };
    },
  };
}
