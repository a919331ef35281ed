import type { ServedEventRecord } from "../../schemas/event-record.ts";
import type { DERIVED_STATES } from "../../schemas/responses/economics.ts";
import { dayBounds, localDateAndTime } from "../time/zone-clock.ts";

type DerivedState = (typeof DERIVED_STATES)[number];

/** When the event's scheduled date starts in its source zone, and when it falls due. */
function moments(record: ServedEventRecord): { dayStart: number; due: number } {
  const day = dayBounds(record.scheduledDate, record.sourceTimezone);
  return { dayStart: day.start, due: record.scheduledAt === null ? day.end : Date.parse(record.scheduledAt) };
}

/** From the clock, never stored. Past due: the scheduled time (date-only: the day's end) passed without publication. */
function derivedStateOf(record: ServedEventRecord, now: number): DerivedState {
  if (record.publication.confirmed) return "CONFIRMED_PUBLISHED";
  if (record.status === "CANCELLED") return "CANCELLED_AT_SOURCE";
  const { dayStart, due } = moments(record);
  if (now >= due) return "PAST_DUE_AWAITING_CONFIRMATION";
  return now >= dayStart ? "DUE_TODAY" : "UPCOMING";
}

/** The next instant after `now` at which the event's derived state changes by the clock alone; Infinity when none. */
function derivedStateChangesAt(record: ServedEventRecord, now: number): number {
  if (record.publication.confirmed || record.status === "CANCELLED") return Number.POSITIVE_INFINITY;
  const { dayStart, due } = moments(record);
  if (now < dayStart) return dayStart;
  return now < due ? due : Number.POSITIVE_INFINITY;
}

/** The event in a zone: a timed event converts; a date-only event keeps its date and has no time (none is invented). */
function localProjection(record: ServedEventRecord, zone: string) {
  if (record.scheduledAt === null) return { date: record.scheduledDate, time: null, timeZone: zone };
  const local = localDateAndTime(Date.parse(record.scheduledAt), zone);
  return { date: local.date, time: local.time, timeZone: zone };
}

/**
 * The record with its derived state. "Not yet available" is the index's word as of its build: once the release is no
 * longer to come, a value still not held is UNAVAILABLE (changing with the derived state, so `statesValidUntil` holds).
 */
function withState(record: ServedEventRecord, now: number) {
  const derivedState = derivedStateOf(record, now);
  const stillToCome = derivedState === "UPCOMING" || derivedState === "DUE_TODAY";
  if (record.values.availability !== "NOT_YET_AVAILABLE" || stillToCome) return { ...record, derivedState };
  return { ...record, derivedState, values: { ...record.values, availability: "UNAVAILABLE" as const } };
}

/** Until when the derived states of these events stay what they are at `now`. */
export function statesValidUntil(records: readonly ServedEventRecord[], now: number): number {
  return Math.min(...records.map((record) => derivedStateChangesAt(record, now)));
}

/** Credentialed routes: `localDate`, `localTime`, `localTimeZone` present exactly when a projection was asked for. */
export function credentialedEntry(record: ServedEventRecord, now: number, zone: string | null) {
  const entry = withState(record, now);
  if (zone === null) return entry;
  const local = localProjection(record, zone);
  return { ...entry, localDate: local.date, localTime: local.time, localTimeZone: local.timeZone };
}
export type CredentialedEntry = ReturnType<typeof credentialedEntry>;

/** Public route: `local` present when `tz` is given. */
export function publicEvent(record: ServedEventRecord, now: number, zone: string | null) {
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
