import type { Registry, Release } from "../../schemas/registry.ts";
import type { NewsFeed } from "../../schemas/vocabularies.ts";
import { addValueEvidence } from "./apply-observations.ts";
import { announcementStore } from "./ledger/announcement-store.ts";
import type { Store, StoredEvent } from "./ledger/store.ts";
import { type CandidateEvent, linkAnnouncement } from "./link-announcement.ts";
import type { createPeriodLinker } from "./link-periods-by-value.ts";
import { releaseStartsAt } from "./release-vintage.ts";

interface RelinkCounts {
  /** Events given a reference period by a value document read earlier. */
  periods: number;
  /** Evidence that a held value is an event's release's figure, added for events created or changed since. */
  evidence: number;
  /** Announcements whose links changed. */
  announcements: number;
}

/**
 * Links are a function of what the store holds, not of the order documents came in: every run ends by deriving again
 * the links it can make from the whole store, as if each document had found everything it now finds there. A period
 * shown by a value document read before its calendar is linked; the values already held become the evidence of the
 * events created or changed since (`events_to_relink`, kept by triggers: the incremental part); every announcement is
 * linked again against the events and values now held. Each link is dated as the document that makes it was fetched,
 * so a store built in any order of runs records the same links with the same times.
 */
export function relinkFromStore(
  store: Store,
  registry: Registry,
  lookups: {
    linkPeriods: ReturnType<typeof createPeriodLinker>;
    matchNewsReleases: (title: string) => Release[];
  },
): RelinkCounts {
  return store.transaction(() => {
    const periods = lookups.linkPeriods.relinkAll(store);
    const evidence = evidenceForChangedEvents(store, registry);
    const announcements = relinkAnnouncements(store, lookups.matchNewsReleases);
    return { periods, evidence, announcements };
  });
}

function evidenceForChangedEvents(store: Store, registry: Registry): number {
  const releases = new Map(registry.releases.map((release) => [release.slug, release]));
  const changed = store.db
    .prepare(
      "SELECT e.* FROM events_to_relink r JOIN events e ON e.id = r.event_id WHERE e.reference_period IS NOT NULL",
    )
    .all() as StoredEvent[];
  let added = 0;
  for (const event of changed) {
    const release = releases.get(event.release_slug);
    if (!release) continue;
    const period = (JSON.parse(event.reference_period!) as { code: string }).code;
    const releaseAt = releaseStartsAt(event);
    for (const slug of release.seriesSlugs) {
      const vintages = store.vintagesOfPeriod(slug, period);
      for (const [position, vintage] of vintages.entries())
        if (addValueEvidence(store, event, releaseAt, vintage, vintages[position - 1] ?? null)) added++;
    }
  }
  store.db.exec("DELETE FROM events_to_relink");
  return added;
}

function relinkAnnouncements(store: Store, matchReleases: (title: string) => Release[]): number {
  const announcements = announcementStore(store.db);
  const eventsOfRelease = store.db.prepare(`SELECT id, scheduled_date AS scheduledDate, scheduled_at AS scheduledAt,
    source_timezone AS sourceTimezone, json_extract(reference_period, '$.code') AS referencePeriodCode
    FROM events WHERE release_slug = ? AND status != 'CANCELLED'`);
  const candidates = new Map<string, CandidateEvent[]>();
  const eventsOf = (slug: string) => {
    let events = candidates.get(slug);
    if (!events) {
      events = eventsOfRelease.all(slug) as CandidateEvent[];
      candidates.set(slug, events);
    }
    return events;
  };
  const currentValue = (seriesSlug: string, period: string) => store.currentVintage(seriesSlug, period)?.value;
  const dropNotice = store.db.prepare(
    "DELETE FROM evidence WHERE kind = 'PUBLISHER_NOTICE' AND detail = ? AND url = ? AND event_id != ?",
  );
  let changed = 0;
  for (const stored of announcements.all()) {
    const item = {
      source: stored.source as NewsFeed,
      sourceItemId: stored.source_item_id,
      title: stored.title,
      url: stored.url,
      publishedAt: stored.published_at,
      updatedAt: stored.updated_at,
    };
    const links = linkAnnouncement(item, matchReleases(item.title), eventsOf, currentValue);
    const linked = links.calendarEvent?.linkStatus === "LINKED" ? links.calendarEvent.eventId : null;
    // A notice is the evidence of the one event it is linked to, observed when it was first read.
    dropNotice.run(stored.title, stored.url, linked ?? "");
    if (linked)
      store.addEvidence(
        linked,
        "PUBLISHER_NOTICE",
        stored.first_seen_at,
        stored.published_at,
        stored.title,
        stored.url,
      );
    const serialised = JSON.stringify(links);
    if (serialised === stored.links && links.linkStatus === stored.link_status) continue;
    announcements.saveLinks(stored, links.linkStatus, serialised);
    changed++;
  }
  return changed;
}
