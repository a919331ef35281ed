import type { Static } from "./json-schema.ts";
import type { credentialedEventSchema, EVENT_VALUE_AVAILABILITIES } from "./responses/economics.ts";
import type { ValueProvenance } from "./value-provenance.ts";
import type { Category, EventChangeField, Importance, Publisher, Region } from "./vocabularies.ts";

export type EventValueAvailability = (typeof EVENT_VALUE_AVAILABILITIES)[number];

/** A value of an event (`values.actual`, `values.previous`): the vintage its release produced, and what revised it since. */
export interface EventValueRecord {
  seriesSlug: string;
  referencePeriod: string;
  value: string | null;
  publicationStatus: string | null;
  publisherNote: string | null;
  /** The vintage's sequence: 1 is the period's first publication as recorded. */
  vintage: number;
  recordedAt: string | null;
  provenance: ValueProvenance;
  /** Later vintages of the period, oldest first: revisions, never the release's figure. */
  revisions: { vintage: number; value: string | null; publicationStatus: string | null; recordedAt: string | null }[];
}

/** A change a source made to an event, as ingestion recorded it (cli/ingest/event-changes.ts). */
export interface EventChange {
  field: EventChangeField;
  from: string | null;
  to: string | null;
  detectedAt: string;
  document: { sha256: string; fetchedAt: string | null } | null;
}

/**
 * An event as the index stores it (`events.record`, JSON) and every events route serves it, minus what depends on the
 * request (`derivedState`, the local projection). Written by cli/ingest/event-record.ts; server/economics reads it as
 * ServedEventRecord (below).
 */
export interface EventRecord {
  id: string;
  title: string;
  release: { slug: string; publisher: Publisher; officialPageUrl: string };
  country: string | null;
  region: Region | null;
  currency: string;
  category: Category;
  referencePeriod: { code: string } | null;
  scheduledDate: string;
  scheduledAt: string | null;
  timePrecision: string;
  sourceTimezone: string;
  status: string;
  /** When ingestion last recorded a change to the event (when it was first seen, if never changed). */
  updatedAt: string;
  publication: {
    releasedAt: string | null;
    detectedAt: string | null;
    confirmed: boolean;
    evidence: { kind: string; observedAt: string; detail: string; url: string | null }[];
    officialPublication: { url: string } | null;
  };
  values: { availability: EventValueAvailability; actual: EventValueRecord | null; previous: EventValueRecord | null };
  importance: Importance;
  importanceBasis: string;
  sources: { sourceId: string; sourceEventId: string; title: string }[];
  changes: EventChange[];
  attribution: { text: string; required: boolean };
}

/**
 * The same record as the server reads it: typed by the response schema, which every stored record meets (the contract
 * tests validate the served ones). The writer above builds it from the ledger's text columns, where vocabularies are
 * plain strings.
 */
export type ServedEventRecord = Omit<
  Static<typeof credentialedEventSchema>,
  "derivedState" | "localDate" | "localTime" | "localTimeZone"
>;
