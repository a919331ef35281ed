import type { EventRecord } from "../../schemas/event-record.ts";
import { localDateAndTime } from "../time/zone-clock.ts";
import { derivedStateChangesAt, derivedStateOf } from "./derived-state.ts";

interface LocalProjection {
  date: string;
  time: string | null;
  timeZone: string;
}

/** The event in a zone: a timed event converts; a date-only event keeps its date and has no time (none is invented). */
export function localProjection(record: EventRecord, zone: string): LocalProjection {
  if (record.scheduledAt === null) return { date: record.scheduledDate, time: null, timeZone: zone };
  const local = localDateAndTime(Date.parse(record.scheduledAt), zone);
  return { date: local.date, time: local.time, timeZone: zone };
}

function stateInputs(record: EventRecord) {
  const { status, scheduledDate, scheduledAt, sourceTimezone } = record;
  return { status, scheduledDate, scheduledAt, sourceTimezone, confirmed: record.publication.confirmed };
}

/**
 * The record with its derived state. "Not yet available" is the index's word as of its build; once the release is
 * past due, confirmed or cancelled it is no longer to come, so a value still not held is UNAVAILABLE. It changes
 * only when the derived state does, so `statesValidUntil` bounds it too.
 */
function withState(record: EventRecord, now: number) {
  const derivedState = derivedStateOf(stateInputs(record), now);
  const stillToCome = derivedState === "UPCOMING" || derivedState === "DUE_TODAY";
  if (record.values.availability !== "NOT_YET_AVAILABLE" || stillToCome) return { ...record, derivedState };
  return { ...record, derivedState, values: { ...record.values, availability: "UNAVAILABLE" as const } };
}

/** Until when the derived states of these events stay what they are at `now`. */
export function statesValidUntil(records: readonly EventRecord[], now: number): number {
  let until = Number.POSITIVE_INFINITY;
  for (const record of records) until = Math.min(until, derivedStateChangesAt(stateInputs(record), now));
  return until;
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
  for (const entry of entries) {
    const day = dayOf(entry);
    const items = days.get(day);
    if (items) items.push(entry);
    else days.set(day, [entry]);
  }
  return [...days].sort(([a], [b]) => a.localeCompare(b)).map(([date, items]) => ({ date, items }));
}
