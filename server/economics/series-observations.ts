import { PAGE_LIMITS, type PageLimit } from "../../schemas/limits.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { ApiError } from "../http/api-error.ts";
import { cursorAfter, decodeCursor, givenValue, parseEnum, parseLimit } from "../http/params.ts";
import { seriesBySlug } from "../registry/registry-queries.ts";
import { seriesView } from "../registry/registry-views.ts";
import { type IndexStorage, requireIndex, withStorageErrors } from "../storage/index-storage.ts";
import { observationPublishers } from "./attribution.ts";
import { parseAsOf } from "./date-range.ts";
import { credentialedFreshnessMeta, dataStatusChangesAt, freshnessMeta } from "./freshness.ts";
import { hasObservations, readObservationPage } from "./observations-reader.ts";
import { readAsOfPage, readVintagePage } from "./vintages-reader.ts";

type Series = NonNullable<ReturnType<typeof seriesBySlug>>;
type Page = ReturnType<typeof openPage>;

/**
 * The public route's page of a series' periods: its current listing. An unknown slug is NOT_FOUND; a registered
 * series with nothing ingested is an absent corpus (503), never an empty 200.
 */
export function publicObservations(
  storage: IndexStorage,
  registry: BuiltRegistry,
  slug: string,
  query: URLSearchParams,
  now: number,
) {
  const page = openPage(storage, requireSeries(registry, slug), query, PAGE_LIMITS.publicObservations);
  return currentListing(page, freshnessMeta(page.index.facts, now), now);
}

/**
 * The credentialed route's page, as the public one's, which also answers `asOf` (none yet is an empty 200) and
 * `vintages=all` (public limit); its current listing keeps its own limit.
 */
export function credentialedObservations(
  storage: IndexStorage,
  registry: BuiltRegistry,
  slug: string,
  query: URLSearchParams,
  now: number,
) {
  const series = requireSeries(registry, slug);
  const asOf = parseAsOf(query.get("asOf"));
  const allVintages = parseEnum(query.get("vintages"), ["all"], "vintages") === "all";
  const limit = asOf === null && !allVintages ? PAGE_LIMITS.credentialedObservations : PAGE_LIMITS.publicObservations;
  const page = openPage(storage, series, query, limit);
  const { db, facts } = page.index;
  const meta = credentialedFreshnessMeta(facts);
  if (allVintages) {
    const read = withStorageErrors(() => readVintagePage(db, series, page.range, asOf, page.offset, page.limit));
    // A page over the response ceiling is cut to fit (spec "Limits"), its cursor resuming after the last period served.
    const firstItems = (n: number) =>
      answer(page, meta, now, { asOf, periods: read.periods.slice(0, n) }, n, n < read.periods.length || read.more);
    return { ...firstItems(read.periods.length), cut: { count: read.periods.length, firstItems } };
  }
  if (asOf !== null) {
    const read = withStorageErrors(() => readAsOfPage(db, series, page.range, asOf, page.offset, page.limit));
    return answer(page, meta, now, { asOf, observations: read.observations }, read.observations.length, read.more);
  }
  return currentListing(page, meta, now);
}

function requireSeries(registry: BuiltRegistry, slug: string): Series {
  const series = seriesBySlug(registry, slug);
  if (!series) throw new ApiError("NOT_FOUND", "No series has this slug.");
  return series;
}

/** The page asked for, once its parameters are read and the series is known to have observations. */
function openPage(storage: IndexStorage, series: Series, query: URLSearchParams, pageLimit: PageLimit) {
  const limit = parseLimit(query.get("limit"), pageLimit);
  const offset = decodeCursor(query.get("cursor"));
  const index = requireIndex(storage);
  if (!withStorageErrors(() => hasObservations(index.db, series.slug)))
    throw new ApiError("SERVICE_UNAVAILABLE", "Nothing has been ingested for this series yet.");
  const range = { from: givenValue(query.get("from")), to: givenValue(query.get("to")) };
  return { series, index, range, offset, limit };
}

function currentListing<Meta extends object>(page: Page, meta: Meta, now: number) {
  const { db } = page.index;
  const read = withStorageErrors(() => readObservationPage(db, page.series, page.range, page.offset, page.limit));
  return answer(page, meta, now, { observations: read.observations }, read.observations.length, read.more);
}

function answer<Meta extends object, Data extends object>(
  page: Page,
  meta: Meta,
  now: number,
  data: Data,
  served: number,
  more: boolean,
) {
  const { series, index, offset } = page;
  return {
    data: { series: seriesView(series), ...data },
    meta: {
      ...meta,
      nextCursor: cursorAfter(offset, served, more),
      attributionRecords: observationPublishers(series, served).records(),
    },
    validUntil: dataStatusChangesAt(index.facts.lastSuccessfulIngestionAt, now),
  };
}
