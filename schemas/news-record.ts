import type { Static } from "./json-schema.ts";
import type { newsEventsSchema } from "./responses/news-status.ts";

/**
 * An announcement as the index stores it (`news.record`, JSON) and the news route serves it: typed by the response
 * schema, so the writer (cli/ingest/index/publish-news.ts) builds exactly what server/news reads.
 */
export type ServedNewsRecord = Static<typeof newsEventsSchema>["events"][number];

/** An announcement's links: to a calendar event, a release family and series, each with the rules that made it. */
export type NewsLinks = ServedNewsRecord["links"];
