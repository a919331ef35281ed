import type { ServedEventRecord } from "../../schemas/event-record.ts";
import {
  CALENDAR_FEED_MAX_EVENTS,
  LIST_SIZES,
  PAGE_LIMITS,
  PUBLIC_CACHE_SECONDS,
  WINDOWS,
} from "../../schemas/limits.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { EVENT_STATUSES, REGIONS } from "../../schemas/vocabularies.ts";
import { eventPublishers, releasePublishers } from "../economics/attribution.ts";
import { calendarFeed } from "../economics/calendar-ics.ts";
import { groupByDay, publicEvent, statesValidUntil } from "../economics/event-views.ts";
import { EVENT_SOURCES, localWindow, readEvents } from "../economics/events-reader.ts";
import { dataStatusChangesAt, freshnessMeta, readSourceChecks } from "../economics/freshness.ts";
import { newestReleases } from "../economics/releases.ts";
import { publicObservations } from "../economics/series-observations.ts";
import { ApiError } from "../http/api-error.ts";
import {
  cursorAfter,
  decodeCursor,
  givenValue,
  isGiven,
  parseEnum,
  parseLimit,
  parseList,
  splitPage,
} from "../http/params.ts";
import type { RouteHandlers } from "../http/route-handler.ts";
import { SerialisedSection } from "../http/serialised-section.ts";
import { requireRegistry } from "../registry/registry-file.ts";
import { matchingSeries } from "../registry/registry-queries.ts";
import { type IndexStorage, requireIndex, withStorageErrors } from "../storage/index-storage.ts";
import { upperCase } from "../storage/record-pages.ts";
import { type Listing, readListing } from "./record-listing.ts";

export function publicEconomicsHandlers(
  storage: IndexStorage,
  registrySource: () => BuiltRegistry | null,
): RouteHandlers {
  const registry = () => requireRegistry(registrySource);

  return {
    "public.economics.calendar": ({ query, now }) => {
      const { zone, range, index, offset, records, more } = readListing(storage, query, now, PUBLIC_CALENDAR);
      const zoneGiven = isGiven(query.get("tz"));
      const events = records.map((record) => publicEvent(record, now, zoneGiven ? zone : null));
      const sourceChecks = withStorageErrors(() => readSourceChecks(index.db));
      const built = registrySource();
      // A page over the response ceiling is cut to fit (meta.truncated); the cursor resumes after the last event served.
      const firstItems = (n: number) => ({
        data: {
          days: groupByDay(events.slice(0, n), (event) =>
            "local" in event ? event.local.date : event.scheduledDate,
          ).map((day) => ({ date: day.date, events: day.items })),
        },
        meta: {
          ...freshnessMeta(index.facts, now),
          sourceChecks,
          nextCursor: cursorAfter(offset, n, n < events.length || more),
          attributionRecords: eventPublishers(records.slice(0, n), built).records(),
        },
      });
      const validUntil = Math.min(
        range.movesAt,
        statesValidUntil(records, now),
        dataStatusChangesAt(index.facts.lastSuccessfulIngestionAt, now),
      );
      return { ...firstItems(events.length), cut: { count: events.length, firstItems }, validUntil };
    },

    "public.economics.calendarFeed": ({ query, now }) => {
      const { range, records, more } = readListing(storage, query, now, CALENDAR_FEED);
      // A feed is not paged: rather than drop events silently, a window that holds more asks to be narrowed.
      if (more)
        throw new ApiError(
          "VALIDATION_FAILED",
          `The window holds more than ${CALENDAR_FEED_MAX_EVENTS} events: narrow it (from, to) or filter it.`,
        );
      // No derived states in the feed: it holds until the data or a default window moves.
      return {
        data: new SerialisedSection(calendarFeed(records, PUBLIC_CACHE_SECONDS.calendar)),
        validUntil: range.movesAt,
      };
    },

    "public.economics.releases": ({ query, now }) => {
      const wanted = parseList(query.get("series"), LIST_SIZES.publicSeries, "series");
      const country = givenValue(query.get("country"))?.toUpperCase() ?? null;
      const region = parseEnum(query.get("region"), REGIONS, "region");
      const perSeries = parseLimit(query.get("perSeries"), PAGE_LIMITS.perSeries, "perSeries");
      const limit = parseLimit(query.get("limit"), PAGE_LIMITS.publicReleases);
      const offset = decodeCursor(query.get("cursor"));
      const index = requireIndex(storage);
      const built = registry();
      const series = matchingSeries(built, { indicator: null, country, region, slugs: wanted });
      const ordered = withStorageErrors(() => newestReleases(index.db, series, perSeries));
      const { rows, more } = splitPage(ordered.slice(offset), limit);
      return {
        data: { releases: rows },
        meta: {
          ...freshnessMeta(index.facts, now),
          nextCursor: cursorAfter(offset, rows.length, more),
          attributionRecords: releasePublishers(rows, built).records(),
        },
        validUntil: dataStatusChangesAt(index.facts.lastSuccessfulIngestionAt, now),
      };
    },

    "public.economics.observations": ({ query, now }) => {
      const slug = givenValue(query.get("series"));
      if (slug === null) throw new ApiError("VALIDATION_FAILED", "series is required.");
      return publicObservations(storage, registry(), slug, query, now);
    },
  };
}

const max = LIST_SIZES.publicFilter;

/** The public calendar's window and filters (spec public calendar), for its JSON and iCalendar forms. */
const PUBLIC_CALENDAR: Listing<ServedEventRecord> = {
  window: WINDOWS.publicCalendar,
  rangeError: "VALIDATION_FAILED",
  within: localWindow,
  page: PAGE_LIMITS.publicCalendar,
  read: readEvents,
  filters: [
    { name: "country", column: "country", max, normalise: upperCase },
    { name: "currency", column: "currency", max, normalise: upperCase },
    { name: "region", column: "region", max, vocabulary: REGIONS },
    { name: "status", column: "status", max, vocabulary: EVENT_STATUSES },
    { name: "release", column: "release_slug", max },
    { name: "source", column: "id", max, linked: EVENT_SOURCES },
  ],
};

/** The iCalendar form: not paged, it reads up to its ceiling from the start. */
const CALENDAR_FEED: Listing<ServedEventRecord> = { ...PUBLIC_CALENDAR, page: CALENDAR_FEED_MAX_EVENTS };
