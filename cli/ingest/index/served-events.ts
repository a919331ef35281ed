import type Database from "better-sqlite3";
import type { StoredEventChange } from "../event-changes.ts";
import type { StoredEvidence } from "../event-record.ts";
import type { StoredEvent, StoredEventSource } from "../ledger/store.ts";
import type { IdRange } from "./event-shares.ts";

/** A served event with what its record is built from: its source records, its evidence and its recorded changes. */
interface ServedEvent {
  event: StoredEvent;
  sources: StoredEventSource[];
  evidence: StoredEvidence[];
  changes: StoredEventChange[];
}

/**
 * Events to serve: all but those whose every source record was, when last seen, skipped as not being an event (a
 * second record under one id does not count: its id's first record is the event). SQL on the ledger: a slice of them,
 * in id order, after a given id and up to another.
 */
const SERVED_EVENTS_IN_RANGE_SQL = `
  SELECT * FROM events e
  WHERE e.id > ? AND e.id <= ? AND (NOT EXISTS (SELECT 1 FROM event_sources s WHERE s.event_id = e.id)
    OR EXISTS (
      SELECT 1 FROM event_sources s
      WHERE s.event_id = e.id AND NOT EXISTS (
        SELECT 1 FROM skipped_calendar_records k
        WHERE k.source = s.source AND k.record = s.source_event_id AND k.reason != 'SECOND_RECORD_WITH_ONE_ID' AND k.last_seen_at >= s.last_seen_at)))
  ORDER BY e.id LIMIT ?`;

/**
 * Events read at once with their parts: one range query per table per slice, where a query per event per table cost
 * seconds; and never the whole calendar in memory.
 */
const EVENTS_PER_SLICE = 2_000;

/** The served events of an id range in id order, each with its parts, read from the ledger a slice of events at a time. */
export function* servedEvents(db: Database.Database, { after: rangeAfter, through }: IdRange): Generator<ServedEvent> {
  const eventsInRange = db.prepare(SERVED_EVENTS_IN_RANGE_SQL);
  const sourcesIn = db.prepare(
    "SELECT * FROM event_sources WHERE event_id BETWEEN ? AND ? ORDER BY event_id, first_seen_at, source",
  );
  const evidenceIn = db.prepare(`SELECT event_id, kind, observed_at, released_at, detail, url FROM evidence
    WHERE event_id BETWEEN ? AND ? ORDER BY event_id, observed_at, kind, detail`);
  const changesIn =
    db.prepare(`SELECT event_id, field, old_value, new_value, changed_at, document_sha256, document_fetched_at FROM event_changes
    WHERE event_id BETWEEN ? AND ? ORDER BY event_id, changed_at, rowid`);
  let after = rangeAfter;
  for (;;) {
    const slice = eventsInRange.all(after, through, EVENTS_PER_SLICE) as StoredEvent[];
    if (slice.length === 0) return;
    const range = [slice[0]!.id, slice.at(-1)!.id];
    const sources = byEvent(sourcesIn.all(...range) as StoredEventSource[]);
    const evidence = byEvent(evidenceIn.all(...range) as (StoredEvidence & { event_id: string })[]);
    const changes = byEvent(changesIn.all(...range) as (StoredEventChange & { event_id: string })[]);
    for (const event of slice) {
      yield {
        event,
        sources: sources.get(event.id) ?? [],
        evidence: evidence.get(event.id) ?? [],
        changes: changes.get(event.id) ?? [],
      };
    }
    after = range[1]!;
  }
}

/** Rows grouped by their event, each group in the order the rows came. */
function byEvent<Row extends { event_id: string }>(rows: Row[]): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const group = groups.get(row.event_id);
    if (group) group.push(row);
    else groups.set(row.event_id, [row]);
  }
  return groups;
}
