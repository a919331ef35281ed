import type { PageLimit } from "../../schemas/limits.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { ApiError } from "../http/api-error.ts";
import { cursorAfter, decodeCursor, parseLimit } from "../http/params.ts";
import { seriesBySlug } from "../registry/registry-queries.ts";
import { seriesView } from "../registry/registry-views.ts";
import type { IndexStorage } from "../storage/index-storage.ts";
import { observationPublishers } from "./attribution.ts";
import { credentialedFreshnessMeta, dataStatusChangesAt, freshnessMeta } from "./freshness.ts";
import { readIndex, requireIndex } from "./index-access.ts";
import { hasObservations, readObservationPage } from "./observations-reader.ts";

/**
 * One page of a series' current vintages, for both observation routes: an unknown slug is NOT_FOUND, and a
 * registered series with nothing ingested is an absent corpus (503), never an empty 200.
 */
export function seriesObservationsAnswer(
  storage: IndexStorage, registry: BuiltRegistry, slug: string, query: URLSearchParams, now: number, pageLimit: PageLimit,
  freshness: typeof freshnessMeta | typeof credentialedFreshnessMeta,
) {
  const series = seriesBySlug(registry, slug);
  if (!series) throw new ApiError("NOT_FOUND", "No series has this slug.");
  const limit = parseLimit(query.get("limit"), pageLimit);
  const offset = decodeCursor(query.get("cursor"));
  const index = requireIndex(storage);
  if (!readIndex(() => hasObservations(index.db, series.slug))) {
    throw new ApiError("SERVICE_UNAVAILABLE", "Nothing has been ingested for this series yet.");
  }
  const page = readIndex(() => readObservationPage(index.db, series, query.get("from"), query.get("to"), offset, limit));
  return {
    data: { series: seriesView(series), observations: page.observations },
    meta: {
      ...freshness(index.facts, now),
      nextCursor: cursorAfter(offset, page.observations.length, page.more),
      attributionRecords: observationPublishers(series, page.observations.length).records(),
    },
    validUntil: dataStatusChangesAt(index.facts.lastSuccessfulIngestionAt, now),
  };
}
