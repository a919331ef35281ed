import { DateTime } from "luxon";
import type { SkippedRecord, SourceAnnouncement } from "../records.ts";
import { elementText, readFeedXml } from "./feed-xml.ts";
import { UpstreamDocumentError } from "./upstream-document-error.ts";

const SOURCE = "ecb-press-feed";

/**
 * The ECB press feed is RSS 2.0 whose items carry only title, link, guid and pubDate (RFC 822 with a local
 * offset). Links come with a doubled slash after the host; the guid is kept raw as the item's identity.
 */
export function parseEcbPressRss(document: string | Buffer): { items: SourceAnnouncement[]; skipped: SkippedRecord[] } {
  const channel = (readFeedXml(SOURCE, document).rss as Record<string, unknown> | undefined)?.channel as
    | Record<string, unknown>
    | undefined;
  if (!channel || typeof channel !== "object")
    throw new UpstreamDocumentError(SOURCE, "malformed", "expected an RSS 2.0 <rss><channel> document");
  const items: SourceAnnouncement[] = [];
  const skipped: SkippedRecord[] = [];
  for (const [position, item] of ((channel.item ?? []) as Record<string, unknown>[]).entries()) {
    const link = elementText((item.link as unknown[] | undefined)?.[0]);
    const id = elementText(item.guid) ?? link;
    const title = elementText(item.title);
    const published = rfc822(elementText(item.pubDate));
    if (!id || !title || !link || !published) {
      skipped.push({ record: id ?? `item ${position + 1}`, reason: "missing guid/link, title or a readable pubDate" });
      continue;
    }
    items.push({
      source: SOURCE,
      sourceItemId: id,
      title,
      url: collapseDoubledSlashes(link),
      publishedAt: published,
      updatedAt: null,
    });
  }
  return { items, skipped };
}

/** `https://www.ecb.europa.eu//press/…` → `https://www.ecb.europa.eu/press/…` (the scheme's `//` stays). */
export function collapseDoubledSlashes(url: string): string {
  return url.replace(/^(https?:\/\/[^/]+)\/{2,}/, "$1/");
}

function rfc822(text: string | null): string | null {
  if (!text) return null;
  const parsed = DateTime.fromRFC2822(text, { setZone: true });
  return parsed.isValid ? parsed.toUTC().toISO() : null;
}
