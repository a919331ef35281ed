import { archivedDocument } from "../../schemas/value-provenance.ts";
import type { EventChangeField } from "../../schemas/vocabularies.ts";

/** A row of the ledger's `event_changes`. */
export interface StoredEventChange {
  field: string;
  old_value: string | null;
  new_value: string | null;
  changed_at: string;
  document_sha256: string | null;
  document_fetched_at: string | null;
}

/** Ledger columns as the served record names them; changes to fields the record does not serve are not listed. */
const SERVED_FIELDS: Readonly<Record<string, EventChangeField>> = {
  title: "title",
  scheduled_date: "scheduledDate",
  scheduled_at: "scheduledAt",
  time_precision: "timePrecision",
  source_timezone: "sourceTimezone",
  reference_period: "referencePeriod",
  status: "status",
  release_slug: "release",
};

/**
 * An event's `changes[]`: what its sources changed, oldest first, as ingestion recorded it: the field, its value
 * before and after (a reference period as its code), when the change was detected, and the archived document that
 * brought it (null for changes recorded before documents were kept with them).
 */
export function servedChanges(rows: readonly StoredEventChange[]) {
  return rows.flatMap((row) => {
    const field = SERVED_FIELDS[row.field];
    if (!field) return [];
    const shown = (value: string | null) =>
      value !== null && field === "referencePeriod" ? (JSON.parse(value) as { code: string }).code : value;
    return [
      {
        field,
        from: shown(row.old_value),
        to: shown(row.new_value),
        detectedAt: row.changed_at,
        document: archivedDocument(row),
      },
    ];
  });
}
