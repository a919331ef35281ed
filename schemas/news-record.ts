import type { Static } from "./json-schema.ts";
import type { newsEventsSchema } from "./responses/news-status.ts";

/** A link an announcement has, with the rules that made it. */
interface NewsLink {
  linkStatus: string;
  /** `rule` is one of LINK_RULES (schemas/responses/news-status.ts). */
  evidence: { rule: string; detail: string }[];
}

/**
 * An announcement as the index stores it (`news.record`, JSON) and the news route serves it. Written by
 * cli/ingest/index/publish-news.ts, read by server/news.
 */
export interface NewsRecord {
  id: string;
  title: string;
  url: string;
  publishedAt: string;
  source: string;
  type: string;
  topic: string | null;
  state: string;
  linkStatus: string;
  links: {
    calendarEvent: (NewsLink & { eventId: string }) | null;
    releaseFamily: (NewsLink & { slug: string }) | null;
    series: (NewsLink & { slug: string; value: { referencePeriod: string; value: string | null } | null })[];
  };
}

/** The same record as the server reads it: typed by the response schema, which every stored record meets. */
export type ServedNewsRecord = Static<typeof newsEventsSchema>["events"][number];
