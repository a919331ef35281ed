import type { CalendarSnapshot, SkippedRecord, SourceEvent } from "../records.ts";

/**
 * Two records under one id would overwrite each other downstream and look like a reschedule on every run,
 * so the first one stands and later ones are reported.
 */
export function calendarSnapshot(candidates: SourceEvent[], skipped: SkippedRecord[]): CalendarSnapshot {
  const seen = new Set<string>();
  const events: SourceEvent[] = [];
  const duplicates: SkippedRecord[] = [];
  for (const event of candidates) {
    if (seen.has(event.sourceEventId)) {
      duplicates.push({ record: event.sourceEventId, reason: `second record with this id (${event.scheduledDate} "${event.title}")` });
      continue;
    }
    seen.add(event.sourceEventId);
    events.push(event);
  }
  return { events, skipped: [...skipped, ...duplicates] };
}
