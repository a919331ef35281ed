import { PAGE_LIMITS } from "../../schemas/limits.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { ApiError } from "../http/api-error.ts";
import { cursorAfter, decodeCursor, givenValue, parseEnum, parseLimit } from "../http/params.ts";
import type { RouteData, RouteResult } from "../http/route-handler.ts";
import { seriesBySlug } from "../registry/registry-queries.ts";
import { seriesView } from "../registry/registry-views.ts";
import { type IndexStorage, requireIndex, withStorageErrors } from "../storage/index-storage.ts";
import { observationPublishers } from "./attribution.ts";
import { parseAsOf } from "./date-range.ts";
import { credentialedFreshnessMeta, dataStatusChangesAt, freshnessMeta } from "./freshness.ts";
import { hasObservations, readObservationPage } from "./observations-reader.ts";
import { readAsOfPage, readVintagePage } from "./vintages-reader.ts";

type Question = [storage: IndexStorage, registry: BuiltRegistry, slug: string, query: URLSearchParams, now: number];
type PublicAnswer = RouteResult<RouteData["public.economics.observations"]>;
type CredentialedAnswer = RouteResult<RouteData["v1.economics.seriesObservations"]>;

/**
 * A page of a series' periods for both observation routes: an unknown slug is NOT_FOUND; a registered series with
 * nothing ingested is an absent corpus (503), never an empty 200. The credentialed route also answers `asOf` (none
 * yet is an empty 200) and `vintages=all` (public limit); its current listing keeps its own limit. Typed by access:
 * the public route's answer is the current listing only.
 */
export function seriesObservationsAnswer(access: "PUBLIC", ...question: Question): PublicAnswer;
export function seriesObservationsAnswer(access: "ECOSYSTEM_INTERNAL", ...question: Question): CredentialedAnswer;
export function seriesObservationsAnswer(
  access: "PUBLIC" | "ECOSYSTEM_INTERNAL",
  ...[storage, registry, slug, query, now]: Question
): CredentialedAnswer {
  const credentialed = access === "ECOSYSTEM_INTERNAL";
  const series = seriesBySlug(registry, slug);
  if (!series) throw new ApiError("NOT_FOUND", "No series has this slug.");
  const asOf = credentialed ? parseAsOf(query.get("asOf")) : null;
  const allVintages = credentialed && parseEnum(query.get("vintages"), ["all"], "vintages") === "all";
  const current = credentialed && asOf === null && !allVintages;
  const limit = parseLimit(
    query.get("limit"),
    current ? PAGE_LIMITS.credentialedObservations : PAGE_LIMITS.publicObservations,
  );
  const offset = decodeCursor(query.get("cursor"));
  const index = requireIndex(storage);
  if (!withStorageErrors(() => hasObservations(index.db, series.slug)))
    throw new ApiError("SERVICE_UNAVAILABLE", "Nothing has been ingested for this series yet.");
  const range = { from: givenValue(query.get("from")), to: givenValue(query.get("to")) };
  const answer = <Data extends object>(data: Data, served: number, more: boolean) => ({
    data: { series: seriesView(series), ...data },
    meta: {
      ...(credentialed ? credentialedFreshnessMeta(index.facts) : freshnessMeta(index.facts, now)),
      nextCursor: cursorAfter(offset, served, more),
      attributionRecords: observationPublishers(series, served).records(),
    },
    validUntil: dataStatusChangesAt(index.facts.lastSuccessfulIngestionAt, now),
  });
  if (allVintages) {
    const page = withStorageErrors(() => readVintagePage(index.db, series, range, asOf, offset, limit));
    // A page over the response ceiling is cut to fit (spec "Limits"), its cursor resuming after the last period served.
    const firstItems = (n: number) =>
      answer({ asOf, periods: page.periods.slice(0, n) }, n, n < page.periods.length || page.more);
    return { ...firstItems(page.periods.length), cut: { count: page.periods.length, firstItems } };
  }
  if (asOf !== null) {
    const page = withStorageErrors(() => readAsOfPage(index.db, series, range, asOf, offset, limit));
    return answer({ asOf, observations: page.observations }, page.observations.length, page.more);
  }
  const page = withStorageErrors(() => readObservationPage(index.db, series, range, offset, limit));
  return answer({ observations: page.observations }, page.observations.length, page.more);
}
