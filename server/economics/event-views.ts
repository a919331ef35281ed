import { DateTime } from "luxon";
import type { EventRecord } from "../../cli/ingest/event-record.ts";
import { derivedStateOf } from "./derived-state.ts";

interface LocalProjection {
  date: string;
  time: string | null;
  timeZone: string;
}

/** The event in a zone: a timed event converts; a date-only event keeps its date and has no time (none is invented). */
export function localProjection(record: EventRecord, zone: string): LocalProjection {
  if (record.scheduledAt === null) return { date: record.scheduledDate, time: null, timeZone: zone };
  const local = DateTime.fromISO(record.scheduledAt, { zone });
  return { date: local.toISODate()!, time: local.toFormat("HH:mm"), timeZone: zone };
}

function withState(record: EventRecord, now: number) {
  return {
    ...record,
    derivedState: derivedStateOf({ ...record, confirmed: record.publication.confirmed }, now),
  };
}

/** Credentialed routes: `localDate`, `localTime`, `localTimeZone` present exactly when a projection was asked for. */
export function credentialedEntry(record: EventRecord, now: number, zone: string | null) {
  const entry = withState(record, now);
  if (zone === null) return entry;
  const local = localProjection(record, zone);
  return { ...entry, localDate: local.date, localTime: local.time, localTimeZone: local.timeZone };
}

/** Public route: `local` present when `tz` is given. */
export function publicEvent(record: EventRecord, now: number, zone: string | null) {
  const event = withState(record, now);
  return zone === null ? event : { ...event, local: localProjection(record, zone) };
}

/** Groups already ordered entries into days keyed by local date (or scheduled date), ascending. */
export function groupByDay<T>(entries: T[], dayOf: (entry: T) => string): { date: string; items: T[] }[] {
  const days = new Map<string, T[]>();
  for (const entry of entries) days.set(dayOf(entry), [...(days.get(dayOf(entry)) ?? []), entry]);
  return [...days].sort(([a], [b]) => a.localeCompare(b)).map(([date, items]) => ({ date, items }));
}
