import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { type IngestSummary, runIngestion } from "../support/compiled-ingestion.ts";

/** Helpers of the announcement tests: temp data dirs, archives to replay, feed documents, and reads of what ingestion wrote. */

export const SAMPLES_DIR = fileURLToPath(new URL("../../data/samples/", import.meta.url));
export const FEED_FIXTURES = fileURLToPath(new URL("../fixtures/feeds/", import.meta.url));

export const NEWS_FEEDS = ["bls-news-feed", "ecb-press-feed"] as const;
export const CALENDAR_SOURCES = [
  "labour-stats-release-schedule",
  "eu-stats-release-calendar",
  "central-bank-meetings-calendar",
  "central-bank-statistics-calendar",
] as const;
export const ECONOMICS_FEEDS = [...CALENDAR_SOURCES, "bls-api", "eurostat-sdmx", "ecb-data"] as const;

const created: string[] = [];

/** Removes every temp dir this module made; test files call it in `afterAll` (a worker's "exit" may never fire). */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}
process.on("exit", removeTempDirs);

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `news-${prefix}-`));
  created.push(dir);
  return dir;
}

export function fixture(name: string): Buffer {
  return readFileSync(join(FEED_FIXTURES, name));
}

/**
 * An archive folder to replay: a copy of the sample archive (or nothing), with the given sources' folders
 * replaced by the given documents (`null` removes a source's folder).
 */
export function archiveWith(
  replace: Record<string, Record<string, string | Buffer> | null>,
  base: "samples" | "empty" = "samples",
): string {
  const dir = tempDir("archive");
  if (base === "samples") cpSync(SAMPLES_DIR, dir, { recursive: true });
  for (const [source, files] of Object.entries(replace)) {
    rmSync(join(dir, source), { recursive: true, force: true });
    if (files === null) continue;
    mkdirSync(join(dir, source), { recursive: true });
    for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, source, name), body);
  }
  return dir;
}

/** One ingestion run replaying `archiveDir` into `dataDir`, every time of the run being `atIso`. */
export async function ingest(
  dataDir: string,
  archiveDir: string,
  atIso: string,
  only: string[] | null = null,
): Promise<IngestSummary> {
  const now = Date.parse(atIso);
  return runIngestion({
    dataDir,
    registry: readRegistrySources(new Date(now)),
    mode: { kind: "archive", dir: archiveDir },
    only,
    now: () => now,
    progress: () => {},
  });
}

/** The sample archive replayed into a fresh data directory; throws unless the run succeeded and published. */
export async function sampleDataDir(atIso: string): Promise<string> {
  const dir = tempDir("samples");
  const summary = await ingest(dir, SAMPLES_DIR, atIso);
  if (summary.outcome !== "succeeded" || !summary.published)
    throw new Error(`sample ingestion failed: ${JSON.stringify(summary.sources)}`);
  return dir;
}

export interface AtomEntry {
  id: string;
  title: string;
  url?: string;
  published: string;
  updated?: string;
}

/** An Atom 1.0 document in the documented BLS shape (§4.1). */
export function atomFeed(entries: AtomEntry[]): string {
  const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const body = entries
    .map(
      (entry) => `  <entry>
    <title>${escapeXml(entry.title)}</title>
    <id>${entry.id}</id>
    <link rel="alternate" href="${entry.url ?? entry.id}"/>
    <published>${entry.published}</published>${entry.updated ? `\n    <updated>${entry.updated}</updated>` : ""}
  </entry>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>BLS Latest Numbers</title>
  <id>https://www.bls.gov/feed/bls_latest.rss</id>
  <updated>2026-03-11T08:30:00-04:00</updated>
${body}
</feed>
`;
}

export interface RssItem {
  title: string;
  link: string;
  pubDate: string;
}

/** An RSS 2.0 document in the documented ECB shape (§4.3); the guid is the link as written. */
export function rssFeed(items: RssItem[]): string {
  const body = items
    .map(
      (item) => `    <item>
      <title>${item.title}</title>
      <link>${item.link}</link>
      <guid>${item.link}</guid>
      <pubDate>${item.pubDate}</pubDate>
    </item>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>ECB - European Central Bank</title>
    <link>https://www.ecb.europa.eu/</link>
    <description>Latest releases on the ECB website - Press releases, speeches and interviews, press conferences.</description>
${body}
  </channel>
</rss>
`;
}

/**
 * CONSTRUCTED, not a recording: the ECB press feed as it would read right after the decisions of 11 June and 23 July
 * 2026 (§4.3: "Monetary policy decisions" at 14:15 local on Day 2). The real recording of 24 June 2026 in the samples
 * holds no decision notice (the 11 June one had rolled off), so the tests that link a decision build this one. The hash
 * part of each URL says it was made up.
 */
export const CONSTRUCTED_ECB_DECISIONS: RssItem[] = [
  {
    title: "Monetary policy decisions",
    link: "https://www.ecb.europa.eu//press/pr/date/2026/html/ecb.mp260723~constructed.en.html",
    pubDate: "Thu, 23 Jul 2026 14:15:00 +0200",
  },
  {
    title: "Monetary policy decisions",
    link: "https://www.ecb.europa.eu//press/pr/date/2026/html/ecb.mp260611~constructed.en.html",
    pubDate: "Thu, 11 Jun 2026 14:15:00 +0200",
  },
];

export interface IndexNewsRow {
  id: string;
  published_at: string;
  source: string;
  type: string;
  topic: string | null;
  state: string;
  link_status: string;
  release_slug: string | null;
  country: string | null;
  content_changed_at: string;
  record: any;
}

/** The published index's news rows, newest first, with their records parsed. */
export function indexNews(dataDir: string): IndexNewsRow[] {
  const db = new Database(join(dataDir, "index.sqlite"), { readonly: true });
  try {
    return (
      db.prepare("SELECT * FROM news ORDER BY published_at DESC, id").all() as (Omit<IndexNewsRow, "record"> & {
        record: string;
      })[]
    ).map((row) => ({ ...row, record: JSON.parse(row.record) }));
  } finally {
    db.close();
  }
}

/** Served event records of the published index by id. */
export function indexEvents(dataDir: string): Map<string, any> {
  const db = new Database(join(dataDir, "index.sqlite"), { readonly: true });
  try {
    const rows = db.prepare("SELECT id, record FROM events").all() as { id: string; record: string }[];
    return new Map(rows.map((row) => [row.id, JSON.parse(row.record)]));
  } finally {
    db.close();
  }
}

/** Rows of the ledger (`store.sqlite`), read only. */
export function storeRows<T>(dataDir: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(join(dataDir, "store.sqlite"), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
