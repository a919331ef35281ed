import { inputLedgerKey, type Registry, type Series, upstreamSeriesKey } from "../../schemas/registry.ts";
import type { RunContext } from "./apply-calendar.ts";
import { DERIVATION_TRANSFORMATIONS, deriveValues, type InputVintage } from "./derive-series.ts";
import type { Store, StoredEvent, StoredVintage } from "./ledger/store.ts";
import type { SourceObservation } from "./records.ts";
import { releaseStartsAt, vintageRecordedAt } from "./release-vintage.ts";
import { isNewVintage } from "./vintages.ts";

export interface ObservationCounts {
  received: number;
  unregistered: number;
  appended: number;
  unchanged: number;
  evidence: number;
  /** Vintages of derived series appended because an input changed. */
  derived: number;
}

/**
 * The archived document the observations were read from: its content hash and when it was fetched from the publisher
 * (null when nothing records it: its vintages have no recording time, and it places no value in time).
 */
export interface SourceDocument {
  sha256: string;
  fetchedAt: string | null;
}

/** Where an observation of a publisher series is kept: a registered series, or the ledger key of a derivation's input. */
interface LedgerTarget {
  key: string;
  series: Series | null;
}

/** Looks up registry series by the publisher's identifier, the releases that publish each, and what each series feeds. */
export function createSeriesIndex(registry: Registry) {
  const byUpstream = new Map<string, LedgerTarget>();
  for (const series of registry.series)
    if (series.upstream) byUpstream.set(upstreamSeriesKey(series.upstream), { key: series.slug, series });
  const feeds = new Map<string, Series[]>();
  for (const series of registry.series) {
    const rule = series.derived;
    if (!rule) continue;
    const inputKey = rule.inputUpstream ? inputLedgerKey(rule.inputUpstream) : rule.inputSeriesSlug!;
    if (rule.inputUpstream && !byUpstream.has(upstreamSeriesKey(rule.inputUpstream)))
      byUpstream.set(upstreamSeriesKey(rule.inputUpstream), { key: inputKey, series: null });
    feeds.set(inputKey, [...(feeds.get(inputKey) ?? []), series]);
  }
  const releasesBySeries = new Map<string, string[]>();
  for (const release of registry.releases) {
    for (const slug of release.seriesSlugs)
      releasesBySeries.set(slug, [...(releasesBySeries.get(slug) ?? []), release.slug]);
  }
  const seriesBySlug = new Map(registry.series.map((series) => [series.slug, series]));
  return {
    targetFor: (seriesId: string) => byUpstream.get(seriesId) ?? null,
    releasesPublishing: (seriesSlug: string) => releasesBySeries.get(seriesSlug) ?? [],
    /** Derived series computed from this ledger key, in registry order. */
    derivedFrom: (key: string) => feeds.get(key) ?? [],
    /** The publisher's identifier of what a derived series reads, for its inputs as served. */
    inputSeriesId: (derived: Series) => {
      const rule = derived.derived!;
      if (rule.inputUpstream) return upstreamSeriesKey(rule.inputUpstream);
      const input = seriesBySlug.get(rule.inputSeriesSlug!);
      return input?.upstream ? upstreamSeriesKey(input.upstream) : rule.inputSeriesSlug!;
    },
  };
}

export type SeriesIndex = ReturnType<typeof createSeriesIndex>;

/**
 * Appends a vintage for every changed value (never overwriting an earlier one), with its provenance: the source and
 * adapter, what was restated, and the document it came from (null only for records made without one). Records the
 * latest document that carried each period, so the publisher's update time moves even when the value does not.
 * Then recomputes the derived series whose inputs this document carried, appending a vintage where a value changed,
 * and records a verified value as evidence of publication for the events whose release produced it.
 */
export function applyObservations(
  store: Store,
  index: SeriesIndex,
  observations: SourceObservation[],
  run: RunContext,
  document: SourceDocument | null,
): ObservationCounts {
  const counts: ObservationCounts = {
    received: observations.length,
    unregistered: 0,
    appended: 0,
    unchanged: 0,
    evidence: 0,
    derived: 0,
  };
  // Without a document (a test's direct call) the run's time is the document's.
  const recordedAt = document ? document.fetchedAt : run.at;
  const carried = new Set<string>();
  const releaseEvents = rememberReleaseEvents(store);
  store.transaction(() => {
    for (const observation of observations) {
      const target = index.targetFor(observation.seriesId);
      if (!target) {
        counts.unregistered++;
        continue;
      }
      carried.add(target.key);
      // A sighting says when a document still carried a period: one that cannot be placed in time says nothing.
      if (recordedAt !== null)
        store.recordSighting({
          series_slug: target.key,
          reference_period: observation.referencePeriod,
          seen_at: recordedAt,
          source_updated_at: observation.sourceUpdatedAt,
          document_sha256: document?.sha256 ?? null,
          run_id: run.runId,
        });
      const current = store.currentVintage(target.key, observation.referencePeriod);
      if (
        !isNewVintage(
          current
            ? { sequence: current.sequence, value: current.value, publicationStatus: current.publication_status }
            : undefined,
          observation,
        )
      ) {
        counts.unchanged++;
        continue;
      }
      const vintage: StoredVintage = {
        series_slug: target.key,
        reference_period: observation.referencePeriod,
        sequence: (current?.sequence ?? 0) + 1,
        value: observation.value,
        publication_status: observation.publicationStatus,
        source_updated_at: observation.sourceUpdatedAt,
        ingested_at: run.ingestedAt ?? run.at,
        run_id: run.runId,
        source: observation.api,
        adapter: observation.adapter,
        transformation: observation.transformation.join(","),
        derivation: "PUBLISHER_VALUE",
        document_sha256: document?.sha256 ?? null,
        document_fetched_at: document?.fetchedAt ?? null,
        note: observation.note,
        derived_inputs: null,
      };
      store.appendVintage(vintage);
      counts.appended++;
      if (target.series && vintage.value !== null)
        counts.evidence += recordValueEvidence(store, index, releaseEvents, vintage, current ?? null);
    }
    for (const key of carried) counts.derived += deriveFrom(store, index, key, run, recordedAt);
  });
  return counts;
}

/**
 * Recomputes every series derived from `key` over all its periods and appends a vintage where the value (or its absence)
 * changed; then whatever is derived from those. The vintage names the input vintages it was computed from.
 */
function deriveFrom(store: Store, index: SeriesIndex, key: string, run: RunContext, asOf: string | null): number {
  let appended = 0;
  for (const series of index.derivedFrom(key)) {
    const rule = series.derived!;
    const current = store.currentVintagesOf(key);
    const inputs = current.map(
      (vintage): InputVintage => ({
        referencePeriod: vintage.reference_period,
        value: vintage.value,
        publicationStatus: vintage.publication_status,
        note: vintage.note,
        sequence: vintage.sequence,
        documentSha256: vintage.document_sha256,
        documentFetchedAt: vintage.document_fetched_at,
      }),
    );
    const source = current.find((vintage) => vintage.source !== null)?.source ?? null;
    let changed = 0;
    for (const derived of deriveValues(rule, series.publisher, index.inputSeriesId(series), inputs, asOf)) {
      const previous = store.currentVintage(series.slug, derived.referencePeriod);
      if (
        !isNewVintage(
          previous
            ? { sequence: previous.sequence, value: previous.value, publicationStatus: previous.publication_status }
            : undefined,
          { value: derived.value, publicationStatus: derived.publicationStatus },
        )
      )
        continue;
      const newest =
        derived.inputs
          .map((input) => input.document)
          .filter((item) => item !== null)
          .sort((a, b) => (a.fetchedAt ?? "").localeCompare(b.fetchedAt ?? ""))
          .at(-1) ?? null;
      store.appendVintage({
        series_slug: series.slug,
        reference_period: derived.referencePeriod,
        sequence: (previous?.sequence ?? 0) + 1,
        value: derived.value,
        publication_status: derived.publicationStatus,
        source_updated_at: null,
        ingested_at: run.ingestedAt ?? run.at,
        run_id: run.runId,
        source,
        adapter: DERIVATION_ADAPTER,
        transformation: DERIVATION_TRANSFORMATIONS[rule.kind].join(","),
        derivation: "SERVICE_DERIVED",
        document_sha256: newest?.sha256 ?? null,
        document_fetched_at: newest?.fetchedAt ?? null,
        note: derived.note,
        derived_inputs: JSON.stringify(derived.inputs),
      });
      changed++;
    }
    appended += changed;
    if (changed > 0) appended += deriveFrom(store, index, series.slug, run, asOf);
  }
  return appended;
}

/** Provenance `adapter` of a value the service computed (cli/ingest/derive-series.ts). */
const DERIVATION_ADAPTER = "derive-series";

/** An event of a release with the instant its release happens (release-vintage.ts). */
interface ReleaseEvent {
  event: StoredEvent;
  releaseAt: string;
}

/**
 * The events of a release for a period, read once per document: a document carries many series of one release for the
 * same periods, and applying its values changes no event.
 */
function rememberReleaseEvents(store: Store): (releaseSlug: string, period: string) => readonly ReleaseEvent[] {
  const known = new Map<string, readonly ReleaseEvent[]>();
  return (releaseSlug, period) => {
    const key = `${releaseSlug}\u0000${period}`;
    let events = known.get(key);
    if (!events) {
      events = store
        .eventsForPeriod(releaseSlug, period)
        .map((event) => ({ event, releaseAt: releaseStartsAt(event) }));
      known.set(key, events);
    }
    return events;
  };
}

/**
 * Evidence of publication for each event of a release publishing the series, for that period, whose release produced
 * this vintage (`valueEvidence`).
 */
function recordValueEvidence(
  store: Store,
  index: SeriesIndex,
  releaseEvents: ReturnType<typeof rememberReleaseEvents>,
  vintage: StoredVintage,
  replaced: StoredVintage | null,
): number {
  let recorded = 0;
  for (const releaseSlug of index.releasesPublishing(vintage.series_slug)) {
    for (const { event, releaseAt } of releaseEvents(releaseSlug, vintage.reference_period))
      if (addValueEvidence(store, event, releaseAt, vintage, replaced)) recorded++;
  }
  return recorded;
}

/**
 * Evidence that an event's release produced this vintage: it was recorded at or after the release's time, while the
 * vintage it replaced was recorded before it (else that earlier vintage is the release's figure and this one a later
 * revision). Observed when the vintage's document was fetched; the detail names the vintage. False when it is not the
 * release's, or the evidence was already there. Called as the vintage arrives and again by every run for the events
 * it created or changed (relink.ts), so the evidence does not depend on whether the values or the calendar came first.
 */
export function addValueEvidence(
  store: Store,
  event: StoredEvent,
  releaseAt: string,
  vintage: StoredVintage,
  replaced: StoredVintage | null,
): boolean {
  const recordedAt = vintageRecordedAt(vintage);
  if (recordedAt === null || vintage.value === null) return false;
  if (recordedAt < releaseAt || (replaced !== null && (vintageRecordedAt(replaced) ?? "") >= releaseAt)) return false;
  const releasedAt = event.scheduled_at !== null && event.scheduled_at <= recordedAt ? event.scheduled_at : null;
  const detail = `${vintage.series_slug} ${vintage.reference_period} = ${vintage.value} (vintage ${vintage.sequence})`;
  return store.addEvidence(event.id, "VERIFIED_VALUE", recordedAt, releasedAt, detail, null);
}
