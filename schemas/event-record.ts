import type { Static } from "./json-schema.ts";
import type { credentialedEventSchema } from "./responses/economics.ts";

/**
 * An event as the index stores it (`events.record`, JSON) and every events route serves it, minus what depends on the
 * request (`derivedState`, the local projection): typed by the response schema, so the writer
 * (cli/ingest/event-record.ts) builds exactly what server/economics reads.
 */
export type ServedEventRecord = Omit<
  Static<typeof credentialedEventSchema>,
  "derivedState" | "localDate" | "localTime" | "localTimeZone"
>;

/** An event's status (`EVENT_STATUSES`), as the ledger stores it and the record serves it. */
export type EventStatus = ServedEventRecord["status"];

/** What a piece of publication evidence is, as the ledger stores it and the record serves it. */
export type EvidenceKind = ServedEventRecord["publication"]["evidence"][number]["kind"];

/** Whether the release's value is held (`EVENT_VALUE_AVAILABILITIES`). */
export type EventValueAvailability = ServedEventRecord["values"]["availability"];

/** A value of an event (`values.actual`, `values.previous`): the vintage its release produced, and what revised it since. */
export type EventValueRecord = NonNullable<ServedEventRecord["values"]["actual"]>;
