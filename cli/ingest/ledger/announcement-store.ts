import type Database from "better-sqlite3";
import type { ServedNewsRecord } from "../../../schemas/news-record.ts";

/**
 * A row of the ledger's `announcements`. Its vocabulary columns hold only what cli/ingest/apply-announcements.ts puts
 * in (typed below), so a row read back is typed the same.
 */
export interface StoredAnnouncement {
  source: string;
  source_item_id: string;
  title: string;
  url: string;
  published_at: string;
  updated_at: string | null;
  state: ServedNewsRecord["state"];
  first_seen_at: string;
  last_seen_at: string;
  content_changed_at: string;
  type: ServedNewsRecord["type"];
  topic: string | null;
  link_status: ServedNewsRecord["linkStatus"];
  links: string;
}

/** The ledger's announcements: one row per feed item, its state at the source and its links with evidence. */
export function announcementStore(db: Database.Database) {
  const statements = {
    find: db.prepare("SELECT * FROM announcements WHERE source = ? AND source_item_id = ?"),
    save: db.prepare(`INSERT INTO announcements VALUES (@source, @source_item_id, @title, @url, @published_at, @updated_at, @state,
      @first_seen_at, @last_seen_at, @content_changed_at, @type, @topic, @link_status, @links)
      ON CONFLICT (source, source_item_id) DO UPDATE SET title = excluded.title, url = excluded.url, published_at = excluded.published_at,
        updated_at = excluded.updated_at, state = excluded.state, last_seen_at = excluded.last_seen_at,
        content_changed_at = excluded.content_changed_at, type = excluded.type, topic = excluded.topic,
        link_status = excluded.link_status, links = excluded.links`),
    publishedSince: db.prepare(
      "SELECT * FROM announcements WHERE source = ? AND published_at >= ? AND state != 'WITHDRAWN'",
    ),
    all: db.prepare("SELECT * FROM announcements ORDER BY published_at DESC, source, source_item_id"),
    saveLinks: db.prepare(
      "UPDATE announcements SET link_status = ?, links = ? WHERE source = ? AND source_item_id = ?",
    ),
  };
  return {
    find: (source: string, itemId: string) => statements.find.get(source, itemId) as StoredAnnouncement | undefined,
    save: (announcement: StoredAnnouncement) => statements.save.run(announcement),
    publishedSince: (source: string, since: string) =>
      statements.publishedSince.all(source, since) as StoredAnnouncement[],
    all: () => statements.all.all() as StoredAnnouncement[],
    /** Replaces an item's links, as linking again from the whole store found them; its state and times stay. */
    saveLinks: (announcement: StoredAnnouncement, linkStatus: StoredAnnouncement["link_status"], links: string) =>
      statements.saveLinks.run(linkStatus, links, announcement.source, announcement.source_item_id),
  };
}
