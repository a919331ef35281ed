import type { Release } from "../../schemas/registry.ts";
import type { NEWS_TYPES } from "../../schemas/responses/news-status.ts";
import type { SourceAnnouncement } from "./records.ts";

type NewsType = (typeof NEWS_TYPES)[number];

/**
 * Our classification of an announcement. BLS feed items are release notices. ECB items are typed by their page's
 * path: `/press/pr/…/ecb.mp…` is a monetary policy decision, other `/press/pr/` pages press releases, `/press/key/`
 * speeches; a statistical press release matched to a release is a RELEASE; anything else is OTHER.
 */
export function classifyAnnouncement(
  item: SourceAnnouncement,
  release: Release | null,
): { type: NewsType; topic: string | null } {
  const topic = release ? release.category.toLowerCase() : null;
  if (item.source === "bls-news-feed") return { type: "RELEASE", topic };
  const path = URL.canParse(item.url) ? new URL(item.url).pathname : item.url;
  if (/^\/press\/pr\/.*\/ecb\.mp/.test(path))
    return { type: "MONETARY_POLICY_DECISION", topic: topic ?? "monetary_policy" };
  if (/^\/press\/pr\/stats\//.test(path) || (release && !/^\/press\/(pr|key)\//.test(path)))
    return { type: "RELEASE", topic };
  if (path.startsWith("/press/pr/")) return { type: "PRESS_RELEASE", topic };
  if (path.startsWith("/press/key/")) return { type: "SPEECH", topic };
  return { type: "OTHER", topic };
}
