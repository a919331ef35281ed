import { DateTime } from "luxon";
import type { SkippedRecord, SourceAnnouncement } from "../records.ts";
import { elementText, readFeedXml } from "./feed-xml.ts";
import { UpstreamDocumentError } from "./upstream-document-error.ts";

const SOURCE = "bls-news-feed";

/**
 * BLS announcement feeds are Atom 1.0 served under `.rss` names. Each entry gives the release name and its
 * reference period in the title, the release page as the `alternate` link, and `published` with a local offset.
 */
export function parseBlsNewsAtom(document: string | Buffer): { items: SourceAnnouncement[]; skipped: SkippedRecord[] } {
  const feed = readFeedXml(SOURCE, document).feed as Record<string, unknown> | undefined;
  if (!feed || typeof feed !== "object")
    throw new UpstreamDocumentError(SOURCE, "malformed", "expected an Atom <feed> document");
  const items: SourceAnnouncement[] = [];
  const skipped: SkippedRecord[] = [];
  for (const [position, entry] of ((feed.entry ?? []) as Record<string, unknown>[]).entries()) {
    const id = elementText(entry.id);
    const title = elementText(entry.title);
    const url = alternateLink(entry.link as Record<string, unknown>[] | undefined);
    const published = instant(elementText(entry.published) ?? elementText(entry.updated));
    if (!id || !title || !url || !published) {
      skipped.push({
        record: id ?? `entry ${position + 1}`,
        reason: "missing id, title, link or a dated published/updated",
      });
      continue;
    }
    items.push({
      source: SOURCE,
      sourceItemId: id,
      title,
      url,
      publishedAt: published,
      updatedAt: instant(elementText(entry.updated)),
    });
  }
  return { items, skipped };
}

/** `rel="alternate"` is the release page; a link without `rel` means alternate in Atom. */
function alternateLink(links: Record<string, unknown>[] | undefined): string | null {
  const chosen = (links ?? []).find((link) => (link["@rel"] ?? "alternate") === "alternate");
  return typeof chosen?.["@href"] === "string" ? chosen["@href"] : null;
}

/** RFC 3339 with its offset, as UTC. */
function instant(text: string | null): string | null {
  if (!text) return null;
  const parsed = DateTime.fromISO(text, { setZone: true });
  return parsed.isValid && /([zZ]|[+-]\d{2}:?\d{2})$/.test(text) ? parsed.toUTC().toISO() : null;
}
