import type { ServedEventRecord } from "../../schemas/event-record.ts";
import { LIST_SIZES, PAGE_LIMITS, WINDOWS } from "../../schemas/limits.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { IMPORTANCE_LEVELS, REGIONS } from "../../schemas/vocabularies.ts";
import { eventPublishers } from "../economics/attribution.ts";
import { type CredentialedEntry, credentialedEntry, groupByDay, statesValidUntil } from "../economics/event-views.ts";
import { EVENT_SOURCES, readEvents, utcDatesWindow } from "../economics/events-reader.ts";
import { credentialedFreshnessMeta } from "../economics/freshness.ts";
import { credentialedObservations } from "../economics/series-observations.ts";
import { cursorAfter, isGiven } from "../http/params.ts";
import type { RouteHandlers, RouteInput } from "../http/route-handler.ts";
import { requireRegistry } from "../registry/registry-file.ts";
import type { IndexStorage } from "../storage/index-storage.ts";
import { upperCase } from "../storage/record-pages.ts";
import { type Listing, readListing } from "./record-listing.ts";

/** The credentialed events and calendar routes' window, filters and page (spec events table). */
const EVENTS: Listing<ServedEventRecord> = {
  window: WINDOWS.credentialed,
  rangeError: "ECONOMICS_RANGE_INVALID",
  within: utcDatesWindow,
  page: PAGE_LIMITS.credentialedEvents,
  read: readEvents,
  filters: [
    { name: "country", column: "country", max: LIST_SIZES.country, normalise: upperCase },
    { name: "region", column: "region", max: LIST_SIZES.region, vocabulary: REGIONS },
    { name: "currency", column: "currency", max: LIST_SIZES.currency, normalise: upperCase },
    { name: "importance", column: "importance", max: LIST_SIZES.importance, vocabulary: IMPORTANCE_LEVELS },
    { name: "release", column: "release_slug", max: LIST_SIZES.release },
    { name: "source", column: "id", max: LIST_SIZES.source, linked: EVENT_SOURCES },
  ],
};

export function economicsHandlers(storage: IndexStorage, registrySource: () => BuiltRegistry | null): RouteHandlers {
  /** A page of events (spec events table) shaped by `dataOf`, projected into `tz` always or only when one is given. */
  const eventsAnswer = <Data>(
    { query, now }: RouteInput,
    alwaysLocal: boolean,
    dataOf: (entries: CredentialedEntry[]) => Data,
  ) => {
    const { zone, range, index, offset, records, more } = readListing(storage, query, now, EVENTS);
    // A blank timezone, like a blank tz, is not given (docs/api.md, parameters): only a value turns the projection on.
    const localise = alwaysLocal || isGiven(query.get("tz")) || isGiven(query.get("timezone"));
    const registry = registrySource();
    const entries = records.map((record) => credentialedEntry(record, now, localise ? zone : null));
    // A page over the response ceiling is cut to fit (spec "Limits"): cursor and attribution follow the events served.
    const firstItems = (n: number) => ({
      data: dataOf(entries.slice(0, n)),
      meta: {
        ...credentialedFreshnessMeta(index.facts),
        nextCursor: cursorAfter(offset, n, n < records.length || more),
        attributionRecords: eventPublishers(records.slice(0, n), registry).records(),
      },
    });
    const validUntil = Math.min(range.movesAt, statesValidUntil(records, now));
    return { ...firstItems(entries.length), cut: { count: entries.length, firstItems }, validUntil };
  };

  return {
    "v1.economics.events": (input) => eventsAnswer(input, false, (entries) => ({ entries })),

    "v1.economics.calendar": (input) =>
      eventsAnswer(input, true, (entries) => ({
        days: groupByDay(entries, (entry) => ("localDate" in entry ? entry.localDate : entry.scheduledDate)).map(
          (day) => ({ date: day.date, entries: day.items }),
        ),
      })),

    "v1.economics.seriesObservations": ({ query, params, now }) =>
      credentialedObservations(storage, requireRegistry(registrySource), params.slug ?? "", query, now),
  };
}
