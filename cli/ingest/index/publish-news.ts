import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import type { NewsLinks, ServedNewsRecord } from "../../../schemas/news-record.ts";
import type { Registry } from "../../../schemas/registry.ts";
import { announcementStore } from "../ledger/announcement-store.ts";
import type { Store } from "../ledger/store.ts";
import type { AnnouncementLinks } from "../link-announcement.ts";

/** Eurostat publishes no announcement feed we could find: its announcements are its calendar records marked as published. */
const CALENDAR_ANNOUNCER = "eu-stats-release-calendar";

export function newsId(source: string, itemId: string): string {
  return `news_${createHash("sha256").update(`${source}\n${itemId}`).digest("hex").slice(0, 20)}`;
}

/** A row of the index's `news`: the record served (its columns are read from it) and what the route filters by. */
interface NewsRow {
  record: ServedNewsRecord;
  releaseSlug: string | null;
  contentChangedAt: string;
  series: string[];
}

/** Writes every announcement of the ledger into the index as a news event ready to serve. */
export function writeNews(index: Database.Database, store: Store, registry: Registry): void {
  const releases = new Map(registry.releases.map((release) => [release.slug, release]));
  const insert = index.prepare("INSERT INTO news VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const insertSeries = index.prepare("INSERT OR IGNORE INTO news_series VALUES (?, ?)");
  for (const { record, releaseSlug, contentChangedAt, series } of [
    ...feedNews(store),
    ...calendarNews(store, releases),
  ]) {
    const country = releaseSlug ? (releases.get(releaseSlug)?.country ?? null) : null;
    insert.run(
      record.id,
      record.publishedAt,
      record.source,
      record.type,
      record.topic,
      record.state,
      record.linkStatus,
      releaseSlug,
      country,
      contentChangedAt,
      JSON.stringify(record),
    );
    for (const slug of series) insertSeries.run(record.id, slug);
  }
}

function feedNews(store: Store): NewsRow[] {
  return announcementStore(store.db)
    .all()
    .map((stored) => {
      const links = JSON.parse(stored.links) as AnnouncementLinks;
      const releaseSlug = links.releaseFamily?.linkStatus === "LINKED" ? links.releaseFamily.slug : null;
      return {
        releaseSlug,
        contentChangedAt: stored.content_changed_at,
        series: links.series.map((link) => link.slug),
        record: {
          id: newsId(stored.source, stored.source_item_id),
          title: stored.title,
          url: stored.url,
          publishedAt: stored.published_at,
          source: stored.source,
          type: stored.type,
          topic: stored.topic,
          state: stored.state,
          linkStatus: stored.link_status,
          links: { calendarEvent: links.calendarEvent, releaseFamily: links.releaseFamily, series: links.series },
        },
      };
    });
}

/**
 * Events the Eurostat calendar itself marks as published. The calendar states no time of publication, so
 * `publishedAt` is when our run observed the mark: a real instant, not an invented release time.
 */
function calendarNews(store: Store, releases: Map<string, Registry["releases"][number]>): NewsRow[] {
  const rows = store.db
    .prepare(`SELECT e.id, e.title, e.release_slug, s.source_event_id, ev.observed_at, ev.url
    FROM events e JOIN event_sources s ON s.event_id = e.id AND s.source = ?
    JOIN evidence ev ON ev.event_id = e.id AND ev.kind = 'SOURCE_CALENDAR'`)
    .all(CALENDAR_ANNOUNCER) as {
    id: string;
    title: string;
    release_slug: string;
    source_event_id: string;
    observed_at: string;
    url: string | null;
  }[];
  return rows.map((row) => {
    const release = releases.get(row.release_slug);
    const evidence = [
      {
        rule: "SOURCE_CALENDAR_MARKED_PUBLISHED" as const,
        detail: `${CALENDAR_ANNOUNCER} record ${row.source_event_id} is marked published`,
      },
    ];
    const links: NewsLinks = {
      calendarEvent: { eventId: row.id, linkStatus: "LINKED", evidence },
      releaseFamily: { slug: row.release_slug, linkStatus: "LINKED", evidence },
      series: (release?.seriesSlugs ?? []).map((slug) => ({ slug, linkStatus: "LINKED", evidence, value: null })),
    };
    return {
      releaseSlug: row.release_slug,
      contentChangedAt: row.observed_at,
      series: release?.seriesSlugs ?? [],
      record: {
        id: newsId(CALENDAR_ANNOUNCER, row.source_event_id),
        title: row.title,
        url: row.url ?? release?.officialPageUrl ?? "",
        publishedAt: row.observed_at,
        source: CALENDAR_ANNOUNCER,
        type: "RELEASE",
        topic: release?.category.toLowerCase() ?? null,
        state: "NEW",
        linkStatus: "LINKED",
        links,
      },
    };
  });
}
