import { LIST_SIZES, PAGE_LIMITS, WINDOWS } from "../../schemas/limits.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { IMPORTANCE_LEVELS, REGIONS } from "../../schemas/vocabularies.ts";
import { eventPublishers } from "../economics/attribution.ts";
import { parseDateRange } from "../economics/date-range.ts";
import { credentialedEntry, groupByDay, statesValidUntil } from "../economics/event-views.ts";
import { type EventFilter, readEvents } from "../economics/events-reader.ts";
import { credentialedFreshnessMeta } from "../economics/freshness.ts";
import { readIndex, requireIndex } from "../economics/index-access.ts";
import { seriesObservationsAnswer } from "../economics/series-observations.ts";
import { cursorAfter, decodeCursor, isGiven, parseEnumList, parseLimit, parseList, parseZone } from "../http/params.ts";
import type { RouteHandler, RouteInput } from "../http/route-handler.ts";
import { requireRegistry } from "../registry/registry-file.ts";
import type { IndexStorage } from "../storage/index-storage.ts";

/** The parameters shared by the credentialed events and calendar routes (spec events table). */
export function eventQueryFrom(query: URLSearchParams, now: number) {
  const zone = parseZone(query.get("tz"));
  const range = parseDateRange(query.get("from"), query.get("to"), now, {
    zone,
    maxDays: WINDOWS.credentialedMaxDays,
    defaultDaysBack: WINDOWS.credentialedDefaultDaysBack,
    defaultDaysAhead: WINDOWS.credentialedDefaultDaysAhead,
    errorCode: "ECONOMICS_RANGE_INVALID",
  });
  const filter: EventFilter = {
    window: { kind: "utc-dates", fromDate: range.fromDate, toDate: range.toDate },
    countries:
      parseList(query.get("country"), LIST_SIZES.country, "country")?.map((code) => code.toUpperCase()) ?? null,
    regions: parseEnumList(query.get("region"), REGIONS, LIST_SIZES.region, "region"),
    currencies:
      parseList(query.get("currency"), LIST_SIZES.currency, "currency")?.map((code) => code.toUpperCase()) ?? null,
    importance: parseEnumList(query.get("importance"), IMPORTANCE_LEVELS, LIST_SIZES.importance, "importance"),
    releases: parseList(query.get("release"), LIST_SIZES.release, "release"),
    sources: parseList(query.get("source"), LIST_SIZES.source, "source"),
    statuses: null,
  };
  // A blank timezone, like a blank tz, is not given (docs/api.md, parameters): only a value turns the projection on.
  const localise = isGiven(query.get("tz")) || isGiven(query.get("timezone"));
  return {
    zone,
    localise,
    filter,
    movesAt: range.movesAt,
    limit: parseLimit(query.get("limit"), PAGE_LIMITS.credentialedEvents),
    offset: decodeCursor(query.get("cursor")),
  };
}

export function economicsHandlers(
  storage: IndexStorage,
  registrySource: () => BuiltRegistry | null,
): Record<string, RouteHandler> {
  const eventPage = ({ query, now }: RouteInput) => {
    const request = eventQueryFrom(query, now);
    const index = requireIndex(storage);
    const page = readIndex(() => readEvents(index.db, request.filter, request.offset, request.limit));
    const freshness = credentialedFreshnessMeta(index.facts);
    const registry = registrySource();
    /**
     * Meta of the page cut to its first `kept` records: the cursor resumes right after the last one served, and the
     * attribution names the publishers of those records only.
     */
    const metaFor = (kept: number) => ({
      ...freshness,
      nextCursor: cursorAfter(request.offset, kept, kept < page.records.length || page.more),
      attributionRecords: eventPublishers(
        kept < page.records.length ? page.records.slice(0, kept) : page.records,
        registry,
      ).records(),
    });
    const validUntil = Math.min(request.movesAt, statesValidUntil(page.records, now));
    return { request, page, metaFor, validUntil };
  };

  return {
    "v1.economics.events": (input) => {
      const { request, page, metaFor, validUntil } = eventPage(input);
      const entries = page.records.map((record) =>
        credentialedEntry(record, input.now, request.localise ? request.zone : null),
      );
      // A page over the response ceiling is cut to fit (meta.truncated), spec "Limits".
      const keep = (n: number) => ({ data: { entries: entries.slice(0, n) }, meta: metaFor(n) });
      return { ...keep(entries.length), cut: { count: entries.length, keep }, validUntil };
    },

    "v1.economics.calendar": (input) => {
      const { request, page, metaFor, validUntil } = eventPage(input);
      const entries = page.records.map((record) => credentialedEntry(record, input.now, request.zone));
      const keep = (n: number) => {
        const days = groupByDay(entries.slice(0, n), (entry) =>
          "localDate" in entry ? entry.localDate : entry.scheduledDate,
        ).map((day) => ({ date: day.date, entries: day.items }));
        return { data: { days }, meta: metaFor(n) };
      };
      return { ...keep(entries.length), cut: { count: entries.length, keep }, validUntil };
    },

    "v1.economics.seriesObservations": ({ query, params, now }) => {
      // The questions about the past page as the public observations route does (issue 13); the current listing keeps its 500.
      return seriesObservationsAnswer(
        storage,
        requireRegistry(registrySource),
        params.slug ?? "",
        query,
        now,
        PAGE_LIMITS.credentialedObservations,
        credentialedFreshnessMeta,
        PAGE_LIMITS.publicObservations,
      );
    },
  };
}
