import { createHash } from "node:crypto";
import type { Release } from "../../schemas/registry.ts";
import type { CalendarSource } from "../../schemas/vocabularies.ts";
import { type CalendarLedger, calendarLedger } from "./ledger/calendar-ledger.ts";
import { type CalendarStatements, calendarStatements } from "./ledger/calendar-statements.ts";
import type { Store, StoredEvent, StoredEventSource } from "./ledger/store.ts";
import type { SkippedCalendarRecord, SourceEvent } from "./records.ts";
import type { ReleaseResolver } from "./release-matching.ts";

export interface CalendarCounts {
  received: number;
  created: number;
  attached: number;
  changed: number;
  unchanged: number;
  cancelled: number;
  /** Records placed under a release the registry does not curate. */
  uncurated: number;
  /** Records that did not become events (named with their reasons in the ledger and the run summary). */
  skipped: number;
}

export interface RunContext {
  runId: string;
  /** ISO time of this run's observation of the source. */
  at: string;
  /**
   * When the values it brings count as ingested (`ingestedAt`), where not `at`: a sample replayed at its stated fetch
   * time is ingested by the replay.
   */
  ingestedAt?: string;
  /** The archived document being applied: named by each change it makes to an event. */
  document?: { sha256: string; fetchedAt: string | null };
}

/** Event ids are derived from the first source that described the release, so they are stable across runs. */
export function stableEventId(source: string, sourceEventId: string): string {
  return `evt_${createHash("sha256").update(`${source}\n${sourceEventId}`).digest("hex").slice(0, 20)}`;
}

/**
 * Applies one snapshot of a calendar source to the store. Every record is an event: of the registry's release its title
 * matches, else of an uncurated release of its own. A moved event becomes RESCHEDULED; a second source describing the
 * same release attaches to the canonical event; an event that vanished from the dates the snapshot covers becomes
 * CANCELLED. Records the adapter could not take as events are kept with their reasons, and count as still listed.
 * Time passing never changes a status.
 */
export function applyCalendarSnapshot(
  store: Store,
  resolveRelease: ReleaseResolver,
  source: CalendarSource,
  snapshot: SourceEvent[],
  run: RunContext,
  skipped: SkippedCalendarRecord[] = [],
): CalendarCounts {
  const counts: CalendarCounts = {
    received: snapshot.length + skipped.length,
    created: 0,
    attached: 0,
    changed: 0,
    unchanged: 0,
    cancelled: 0,
    uncurated: 0,
    skipped: skipped.length,
  };
  const ledger = calendarLedger(store.db);
  const stated = calendarStatements(store.db);
  // When this snapshot was fetched ('' when not known: older than any): a record a later snapshot listed is that
  // snapshot's to say, and one it did not list stays cancelled, whatever order the snapshots are applied in.
  const fetchedAt = (run.document ? run.document.fetchedAt : run.at) ?? "";
  const seen = new Set<string>(skipped.map((record) => record.record));
  const uncuratedSaved = new Set<string>();
  store.transaction(() => {
    for (const incoming of snapshot) {
      const { release, curated } = resolveRelease(source, incoming.title);
      if (!curated) {
        counts.uncurated++;
        if (!uncuratedSaved.has(release.slug))
          ledger.saveUncurated({ slug: release.slug, name: release.name, source }, run.at);
        uncuratedSaved.add(release.slug);
      }
      seen.add(incoming.sourceEventId);
      const reference = store.eventSource(source, incoming.sourceEventId);
      if (reference && stated.statedLater(source, incoming.sourceEventId, fetchedAt)) {
        counts.unchanged++;
        continue;
      }
      const { outcome, eventId } = reference
        ? updateKnown(store, ledger, reference, release, incoming, run)
        : placeNew(store, release, incoming, run);
      counts[outcome]++;
      store.upsertEventSource({
        source,
        source_event_id: incoming.sourceEventId,
        event_id: eventId,
        title: incoming.title,
        scheduled_date: incoming.scheduledDate,
        scheduled_at: incoming.scheduledAt,
        first_seen_at: reference?.first_seen_at ?? run.at,
        last_seen_at: run.at,
      });
      stated.state(source, incoming.sourceEventId, fetchedAt);
      if (outcome === "created") counts.cancelled += cancelIfNewerOmits(store, stated, source, eventId, fetchedAt);
    }
    for (const record of skipped) ledger.saveSkip(source, record, run.at, run.runId);
    counts.cancelled += cancelVanished(store, stated, source, snapshot, seen, run, fetchedAt);
    if (snapshot.length > 0) {
      const dates = snapshot.map((event) => event.scheduledDate).sort();
      stated.recordSnapshot({
        source,
        fetched_at: fetchedAt,
        first_date: dates[0]!,
        last_date: dates.at(-1)!,
        sha256: run.document?.sha256 ?? "",
        run_id: run.runId,
        at: run.at,
      });
    }
  });
  return counts;
}

type Placement = { outcome: "changed" | "unchanged" | "created" | "attached"; eventId: string };

function updateKnown(
  store: Store,
  ledger: CalendarLedger,
  reference: StoredEventSource,
  release: Release,
  incoming: SourceEvent,
  run: RunContext,
): Placement {
  const before = store.event(reference.event_id)!;
  const after: StoredEvent = { ...before };
  // The record an event was created from decides its release: the registry may start (or stop) curating its title.
  const releaseMoved =
    release.slug !== before.release_slug && before.id === stableEventId(incoming.source, incoming.sourceEventId);
  if (releaseMoved) {
    store.recordChange(before.id, run, "release_slug", before.release_slug, release.slug);
    ledger.moveToRelease(before.id, release.slug, run.at);
  }
  const moved = reference.scheduled_date !== incoming.scheduledDate || reference.scheduled_at !== incoming.scheduledAt;
  if (moved) {
    Object.assign(after, {
      scheduled_date: incoming.scheduledDate,
      scheduled_at: incoming.scheduledAt,
      time_precision: incoming.timePrecision,
    });
    if (after.status !== "PUBLISHED") after.status = "RESCHEDULED";
  }
  if (before.status === "CANCELLED") {
    after.status = moved ? "RESCHEDULED" : "SCHEDULED";
    after.withdrawn_at = null;
  }
  if (after.reference_period === null && incoming.referencePeriod)
    after.reference_period = JSON.stringify(incoming.referencePeriod);
  if (incoming.sourceStatus === "PUBLISHED") markPublishedBySource(store, after, incoming, run);
  const outcome = saveIfChanged(store, before, after, run);
  return { outcome: releaseMoved ? "changed" : outcome, eventId: before.id };
}

function placeNew(store: Store, release: Release, incoming: SourceEvent, run: RunContext): Placement {
  const periodCode = incoming.referencePeriod?.code ?? null;
  const canonical = store
    .canonicalCandidates(release.slug, incoming.scheduledDate, periodCode)
    .find((event) => !store.sourcesOfEvent(event.id).some((reference) => reference.source === incoming.source));
  if (canonical) {
    const after: StoredEvent = { ...canonical };
    if (after.reference_period === null && incoming.referencePeriod)
      after.reference_period = JSON.stringify(incoming.referencePeriod);
    if (
      after.scheduled_at === null &&
      incoming.scheduledAt !== null &&
      after.scheduled_date === incoming.scheduledDate
    ) {
      Object.assign(after, {
        scheduled_at: incoming.scheduledAt,
        time_precision: incoming.timePrecision,
        source_timezone: incoming.sourceTimezone,
      });
    }
    if (incoming.sourceStatus === "PUBLISHED") markPublishedBySource(store, after, incoming, run);
    saveIfChanged(store, canonical, after, run);
    return { outcome: "attached", eventId: canonical.id };
  }
  const published = incoming.sourceStatus === "PUBLISHED";
  const event: StoredEvent = {
    id: stableEventId(incoming.source, incoming.sourceEventId),
    release_slug: release.slug,
    title: incoming.title,
    scheduled_date: incoming.scheduledDate,
    scheduled_at: incoming.scheduledAt,
    time_precision: incoming.timePrecision,
    source_timezone: incoming.sourceTimezone,
    reference_period: incoming.referencePeriod ? JSON.stringify(incoming.referencePeriod) : null,
    status: published ? "PUBLISHED" : "SCHEDULED",
    withdrawn_at: null,
    first_seen_at: run.at,
    updated_at: run.at,
  };
  store.insertEvent(event);
  if (published) recordSourceCalendarEvidence(store, event.id, incoming, run);
  return { outcome: "created", eventId: event.id };
}

function markPublishedBySource(store: Store, event: StoredEvent, incoming: SourceEvent, run: RunContext): void {
  event.status = "PUBLISHED";
  recordSourceCalendarEvidence(store, event.id, incoming, run);
}

/** The source calendar stating that the release happened is evidence of publication. */
function recordSourceCalendarEvidence(store: Store, eventId: string, incoming: SourceEvent, run: RunContext): void {
  store.addEvidence(
    eventId,
    "SOURCE_CALENDAR",
    run.at,
    null,
    `${incoming.source} lists ${incoming.sourceEventId} as published`,
    incoming.sourceUrl,
  );
}

/** Events this source no longer lists, within the dates its snapshot covers, were removed by the publisher. */
function cancelVanished(
  store: Store,
  stated: CalendarStatements,
  source: CalendarSource,
  snapshot: SourceEvent[],
  seen: Set<string>,
  run: RunContext,
  fetchedAt: string,
): number {
  if (snapshot.length === 0) return 0;
  const dates = snapshot.map((event) => event.scheduledDate).sort();
  let cancelled = 0;
  for (const reference of store.sourceRefsInRange(source, dates[0]!, dates.at(-1)!)) {
    if (seen.has(reference.source_event_id) || stated.statedLater(source, reference.source_event_id, fetchedAt))
      continue;
    // Not listing a record is a statement too: an older snapshot that lists it does not bring it back.
    stated.state(source, reference.source_event_id, fetchedAt);
    const before = store.event(reference.event_id)!;
    if (before.status === "CANCELLED" || before.status === "PUBLISHED") continue;
    const others = store.sourcesOfEvent(before.id).filter((other) => other.source !== source);
    if (others.length > 0) continue;
    saveIfChanged(store, before, { ...before, status: "CANCELLED", withdrawn_at: run.at }, run);
    cancelled++;
  }
  return cancelled;
}

/**
 * A record new to the ledger from a snapshot older than one already applied whose dates include it: that newer
 * snapshot did not list it, so the event is cancelled as that snapshot's fetch would have cancelled it. Returns 1 if so.
 */
function cancelIfNewerOmits(
  store: Store,
  stated: CalendarStatements,
  source: CalendarSource,
  eventId: string,
  fetchedAt: string,
): number {
  const event = store.event(eventId)!;
  const newer = stated.newerCovering(source, fetchedAt, event.scheduled_date);
  if (!newer || event.status === "PUBLISHED") return 0;
  const reference = store.sourcesOfEvent(eventId).find((candidate) => candidate.source === source)!;
  stated.state(source, reference.source_event_id, newer.fetched_at);
  const run: RunContext = {
    runId: newer.run_id,
    at: newer.at,
    document: newer.sha256 ? { sha256: newer.sha256, fetchedAt: newer.fetched_at || null } : undefined,
  };
  saveIfChanged(store, event, { ...event, status: "CANCELLED", withdrawn_at: newer.at }, run);
  return 1;
}

function saveIfChanged(
  store: Store,
  before: StoredEvent,
  after: StoredEvent,
  run: RunContext,
): "changed" | "unchanged" {
  const fields = [
    "title",
    "scheduled_date",
    "scheduled_at",
    "time_precision",
    "source_timezone",
    "reference_period",
    "status",
    "withdrawn_at",
  ] as const;
  const changed = fields.filter((field) => before[field] !== after[field]);
  if (changed.length === 0) return "unchanged";
  for (const field of changed) store.recordChange(before.id, run, field, before[field], after[field]);
  store.updateEvent({ ...after, updated_at: run.at });
  return "changed";
}
