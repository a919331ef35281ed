import type { ReferencePeriod } from "../../schemas/reference-periods.ts";
import type {
  CalendarSkipReason,
  CalendarSource,
  NewsFeed,
  ObservationApi,
  TimePrecision,
  ValueTransformation,
} from "../../schemas/vocabularies.ts";

/**
 * Our own records, as the upstream adapters produce them from one publisher document.
 * They carry only what that document says; matching, status history and storage happen later.
 */

/** A source slug of either kind, for naming where a document came from. */
export type UpstreamSource = CalendarSource | ObservationApi | NewsFeed;

export interface SourceEvent {
  source: CalendarSource;
  /** The publisher's own identifier where it has one, else derived from fields that survive a date change. */
  sourceEventId: string;
  /** HTML entities decoded, surrounding whitespace trimmed; otherwise the publisher's wording. */
  title: string;
  /** `YYYY-MM-DD` in `sourceTimezone`. */
  scheduledDate: string;
  /** UTC instant (`toISOString` form), or null when the source gave a date and no time. Never invented. */
  scheduledAt: string | null;
  timePrecision: TimePrecision;
  /** IANA zone the publisher announced in. */
  sourceTimezone: string;
  /** Null unless the source states exactly one period unambiguously. */
  referencePeriod: ReferencePeriod | null;
  /** The period as the publisher wrote it (trimmed), kept even when it could not be read; null when the source has none. */
  referencePeriodText: string | null;
  /** What the source itself says. RESCHEDULED is decided later by comparing snapshots. */
  sourceStatus: "SCHEDULED" | "PUBLISHED";
  /** A page for this event if the source links one. */
  sourceUrl: string | null;
}

/** A record of the document the adapter left out, and why. */
export interface SkippedRecord {
  /** The publisher's id of the record, or where it sits in the document (`line 12`, `entry 3`). */
  record: string;
  reason: string;
}

/** A calendar record that did not become an event: why (`kind`, counted), in the adapter's words (`reason`), and what it said. */
export interface SkippedCalendarRecord extends SkippedRecord {
  kind: CalendarSkipReason;
  /** The record's title and date as the source wrote them, where it had them. */
  title: string | null;
  scheduledDate: string | null;
}

export interface CalendarSnapshot {
  events: SourceEvent[];
  skipped: SkippedCalendarRecord[];
}

export interface SourceObservation {
  api: ObservationApi;
  /** BLS series id, ECB `FLOW.KEY`, or Eurostat `dataset.KEY` (the form of `upstreamSeriesKey`). */
  seriesId: string;
  /** `YYYY-MM`, `YYYY-Q<n>`, `YYYY`, or `YYYY-MM-DD` for daily series. */
  referencePeriod: string;
  /** The publisher's exact decimal text ("5.0" stays "5.0"); null when the publisher gives no value. */
  value: string | null;
  /** The publisher's status marker as written: BLS footnote codes, Eurostat OBS_FLAG, ECB OBS_STATUS. */
  publicationStatus: string | null;
  /** When the publisher says the data were last updated, as a UTC instant; null when the document does not say. */
  sourceUpdatedAt: string | null;
  /** The publisher's own words on the value (BLS footnote texts, a JSON-stat status label), or null when it gives none. */
  note: string | null;
  /** The adapter that read it (provenance `adapter`). */
  adapter: string;
  /** What the adapter restated, in the service's vocabulary (provenance `transformation`); empty when the value is as written. */
  transformation: ValueTransformation[];
}

/** One item of a publisher's announcement feed, as the feed states it. */
export interface SourceAnnouncement {
  source: NewsFeed;
  /** The feed's own identity of the item (Atom `id`, RSS `guid`), kept raw. */
  sourceItemId: string;
  title: string;
  /** The publisher's page for the item (Atom alternate link; RSS link with doubled slashes collapsed). */
  url: string;
  /** UTC instant of publication as the feed states it. */
  publishedAt: string;
  /** UTC instant of the item's last update, when the feed states one. */
  updatedAt: string | null;
}
