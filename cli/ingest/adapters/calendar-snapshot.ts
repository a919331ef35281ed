import type { CalendarSnapshot, SkippedCalendarRecord, SourceEvent } from "../records.ts";

/**
 * Two records under one id would overwrite each other downstream and look like a reschedule on every run,
 * so the first one stands and later ones are reported.
 */
export function calendarSnapshot(candidates: SourceEvent[], skipped: SkippedCalendarRecord[]): CalendarSnapshot {
  const seen = new Set<string>();
  const events: SourceEvent[] = [];
  const duplicates: SkippedCalendarRecord[] = [];
  for (const event of candidates) {
    if (seen.has(event.sourceEventId)) {
      duplicates.push({
        record: event.sourceEventId,
        kind: "SECOND_RECORD_WITH_ONE_ID",
        title: event.title,
        scheduledDate: event.scheduledDate,
        reason: `second record with this id (${event.scheduledDate} "${event.title}")`,
      });
      continue;
    }
    seen.add(event.sourceEventId);
    events.push(event);
  }
  return { events, skipped: [...skipped, ...duplicates] };
}
