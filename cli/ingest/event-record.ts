import type {
  EventValueAvailability,
  EventValueRecord,
  EvidenceKind,
  ServedEventRecord,
} from "../../schemas/event-record.ts";
import { PUBLISHER_TERMS } from "../../schemas/publishers.ts";
import type { ReferencePeriod } from "../../schemas/reference-periods.ts";
import type { Release } from "../../schemas/registry.ts";
import { type StoredEventChange, servedChanges } from "./event-changes.ts";
import type { StoredEvent, StoredEventSource } from "./ledger/store.ts";

export interface StoredEvidence {
  kind: EvidenceKind;
  observed_at: string;
  released_at: string | null;
  detail: string;
  url: string | null;
}

/** What the index needs to know about values to describe an event's `values` section. */
export interface ValueLookup {
  current(seriesSlug: string, period: string): EventValueRecord | null;
  before(seriesSlug: string, period: string): EventValueRecord | null;
}

/**
 * The event record as served, minus what depends on the request (derivedState, local projection).
 * `confirmed` is true only with evidence; `releasedAt`/`detectedAt` come from that evidence alone.
 */
export function eventRecord(
  event: StoredEvent,
  release: Release,
  sources: StoredEventSource[],
  evidence: StoredEvidence[],
  values: ValueLookup,
  changes: StoredEventChange[],
): ServedEventRecord {
  // Written whole by cli/ingest/apply-calendar.ts and link-periods-by-value.ts, from a ReferencePeriod.
  const referencePeriod = event.reference_period ? (JSON.parse(event.reference_period) as ReferencePeriod) : null;
  const releasedTimes = evidence
    .map((item) => item.released_at)
    .filter((time): time is string => time !== null)
    .sort();
  const detectedTimes = evidence.map((item) => item.observed_at).sort();
  const confirmed = evidence.length > 0;
  const { actual, previous } = referencePeriod
    ? headlineValues(release.headlineSeriesSlugs, referencePeriod.code, values)
    : { actual: null, previous: null };
  const terms = PUBLISHER_TERMS[release.publisher];
  return {
    id: event.id,
    title: event.title,
    release: { slug: release.slug, publisher: release.publisher, officialPageUrl: release.officialPageUrl },
    country: release.country,
    region: release.region,
    currency: release.currency,
    category: release.category,
    referencePeriod,
    scheduledDate: event.scheduled_date,
    scheduledAt: event.scheduled_at,
    timePrecision: event.time_precision,
    sourceTimezone: event.source_timezone,
    status: event.status,
    updatedAt: event.updated_at,
    publication: {
      releasedAt: releasedTimes[0] ?? null,
      detectedAt: detectedTimes[0] ?? null,
      confirmed,
      evidence: evidence.map((item) => ({
        kind: item.kind,
        observedAt: item.observed_at,
        detail: item.detail,
        url: item.url,
      })),
      officialPublication: confirmed
        ? { url: evidence.find((item) => item.kind === "PUBLISHER_NOTICE" && item.url)?.url ?? release.officialPageUrl }
        : null,
    },
    values: { availability: availabilityOf(release.headlineSeriesSlugs, referencePeriod, actual), actual, previous },
    importance: release.importance,
    importanceBasis: release.importanceBasis,
    sources: sources.map((source) => ({
      sourceId: source.source,
      sourceEventId: source.source_event_id,
      title: source.title,
    })),
    changes: servedChanges(changes),
    attribution: { text: terms.attributionText, required: terms.required },
  };
}

/**
 * An event's `actual` and `previous` from its release's headline series, in the order the publisher's release states
 * them (docs/data.md, "Values of an event"): the first headline series whose release vintage carries a number, else the
 * first whose release vintage is the publisher's gap; `previous` is that same series' previous period. With no release
 * vintage of any headline series held, `actual` is null and `previous` the first headline series' previous period held.
 */
function headlineValues(
  headline: readonly string[],
  period: string,
  values: ValueLookup,
): { actual: EventValueRecord | null; previous: EventValueRecord | null } {
  const produced = headline
    .map((slug) => ({ slug, actual: values.current(slug, period) }))
    .filter((candidate) => candidate.actual !== null);
  const chosen = produced.find((candidate) => candidate.actual!.value !== null) ?? produced[0];
  if (chosen) return { actual: chosen.actual, previous: values.before(chosen.slug, period) };
  for (const slug of headline) {
    const previous = values.before(slug, period);
    if (previous) return { actual: null, previous };
  }
  return { actual: null, previous: null };
}

/**
 * Whether the release's value is held (schemas/responses/economics.ts `EVENT_VALUE_AVAILABILITIES`). A vintage the
 * release produced with no value (the publisher's own "-" or ":") is shown, and is UNAVAILABLE. With no vintage yet
 * the record says NOT_YET_AVAILABLE, which readers restate as UNAVAILABLE once the release is past or confirmed
 * (server/economics/event-views.ts): only a release still to come reads as "still coming".
 */
function availabilityOf(
  headline: readonly string[],
  referencePeriod: ReferencePeriod | null,
  actual: EventValueRecord | null,
): EventValueAvailability {
  if (headline.length === 0 || referencePeriod === null) return "NOT_LINKED";
  if (actual === null) return "NOT_YET_AVAILABLE";
  return actual.value === null ? "UNAVAILABLE" : "AVAILABLE";
}
