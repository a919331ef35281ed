import type { Release } from "../../schemas/registry.ts";
import type { NewsFeed } from "../../schemas/vocabularies.ts";
import type { RunContext } from "./apply-calendar.ts";
import { classifyAnnouncement } from "./classify-announcement.ts";
import { announcementStore, type StoredAnnouncement } from "./ledger/announcement-store.ts";
import type { Store } from "./ledger/store.ts";
import { type CandidateEvent, linkAnnouncement } from "./link-announcement.ts";
import type { SkippedRecord, SourceAnnouncement } from "./records.ts";

export interface AnnouncementCounts {
  received: number;
  new: number;
  updated: number;
  withdrawn: number;
  linked: number;
  ambiguous: number;
  unlinked: number;
  confirmed: number;
}

/**
 * Applies one snapshot of an announcement feed: items are NEW when first seen, UPDATED when their title, link or
 * update time changed, WITHDRAWN when they vanish from between items the snapshot still lists (see `withdrawVanished`).
 * A notice linked to a calendar event is evidence of its publication.
 */
export function applyAnnouncements(
  store: Store,
  matchReleases: (title: string) => Release[],
  feed: NewsFeed,
  snapshot: { items: SourceAnnouncement[]; skipped: SkippedRecord[] },
  run: RunContext,
): AnnouncementCounts {
  const { items } = snapshot;
  const counts: AnnouncementCounts = {
    received: items.length,
    new: 0,
    updated: 0,
    withdrawn: 0,
    linked: 0,
    ambiguous: 0,
    unlinked: 0,
    confirmed: 0,
  };
  const announcements = announcementStore(store.db);
  const eventsOf =
    store.db.prepare(`SELECT id, scheduled_date AS scheduledDate, scheduled_at AS scheduledAt, source_timezone AS sourceTimezone,
    json_extract(reference_period, '$.code') AS referencePeriodCode FROM events WHERE release_slug = ? AND status != 'CANCELLED'`);
  const currentValue = (seriesSlug: string, period: string) => store.currentVintage(seriesSlug, period)?.value;

  store.transaction(() => {
    for (const item of items) {
      const releases = matchReleases(item.title);
      const links = linkAnnouncement(item, releases, (slug) => eventsOf.all(slug) as CandidateEvent[], currentValue);
      const { type, topic } = classifyAnnouncement(item, releases.length === 1 ? releases[0]! : null);
      const before = announcements.find(feed, item.sourceItemId);
      const changed =
        before !== undefined &&
        (before.title !== item.title || before.url !== item.url || before.updated_at !== item.updatedAt);
      const state: StoredAnnouncement["state"] =
        before === undefined ? "NEW" : changed || before.state === "WITHDRAWN" ? "UPDATED" : before.state;
      if (before === undefined) counts.new++;
      else if (changed || state !== before.state) counts.updated++;
      counts[links.linkStatus === "LINKED" ? "linked" : links.linkStatus === "AMBIGUOUS" ? "ambiguous" : "unlinked"]++;
      announcements.save({
        source: feed,
        source_item_id: item.sourceItemId,
        title: item.title,
        url: item.url,
        published_at: item.publishedAt,
        updated_at: item.updatedAt,
        state,
        first_seen_at: before?.first_seen_at ?? run.at,
        last_seen_at: run.at,
        content_changed_at:
          before === undefined || changed || state !== before.state ? run.at : before.content_changed_at,
        type,
        topic,
        link_status: links.linkStatus,
        links: JSON.stringify(links),
      });
      // The release time is the one the publisher states in its notice (the spec's "publisher's times"), even where a feed
      // dates items a little before the scheduled release, as BLS does; the scheduled time stays visible beside it.
      if (
        links.calendarEvent?.linkStatus === "LINKED" &&
        store.addEvidence(
          links.calendarEvent.eventId,
          "PUBLISHER_NOTICE",
          // Observed when the notice was first read, as linking it again from the store dates it (relink.ts).
          before?.first_seen_at ?? run.at,
          item.publishedAt,
          item.title,
          item.url,
        )
      ) {
        counts.confirmed++;
      }
    }
    counts.withdrawn = withdrawVanished(
      announcements,
      feed,
      items,
      new Set(snapshot.skipped.map((record) => record.record)),
      run,
    );
  });
  return counts;
}

/**
 * The publishers' feeds list only their newest items (the ECB press feed about 15), so an item missing from a snapshot
 * is withdrawn only when the snapshot still lists items published both before it and after it. One older than every
 * listed item has rolled off the end; one newer than every listed item may postdate the snapshot (a copy taken or
 * cached before it was published) and is withdrawn only once a later item is listed without it. Items published at the
 * same instant as the oldest or newest listed one are on that boundary and are not withdrawn either. An item the feed
 * still lists but the adapter had to skip (say, it lost its link) has not vanished from the source.
 */
function withdrawVanished(
  announcements: ReturnType<typeof announcementStore>,
  feed: NewsFeed,
  items: SourceAnnouncement[],
  skipped: Set<string>,
  run: RunContext,
): number {
  if (items.length === 0) return 0;
  const seen = new Set([...items.map((item) => item.sourceItemId), ...skipped]);
  const published = items.map((item) => item.publishedAt).sort();
  const [oldest, newest] = [published[0]!, published.at(-1)!];
  let withdrawn = 0;
  for (const stored of announcements.publishedSince(feed, oldest)) {
    if (seen.has(stored.source_item_id) || stored.published_at <= oldest || stored.published_at >= newest) continue;
    announcements.save({
      ...stored,
      state: "WITHDRAWN",
      content_changed_at: run.at,
      last_seen_at: stored.last_seen_at,
    });
    withdrawn++;
  }
  return withdrawn;
}
