import type { DERIVED_STATES } from "../../schemas/responses/economics.ts";
import { dayBounds } from "../time/zone-clock.ts";

export type DerivedState = (typeof DERIVED_STATES)[number];

interface StateInputs {
  status: string;
  confirmed: boolean;
  scheduledDate: string;
  scheduledAt: string | null;
  sourceTimezone: string;
}

/**
 * Computed per request from the clock, never stored. Past due means the scheduled time (for a date-only
 * event, the end of its scheduled date in the source zone) has passed without evidence of publication.
 */
export function derivedStateOf(event: StateInputs, now: number): DerivedState {
  if (event.confirmed) return "CONFIRMED_PUBLISHED";
  if (event.status === "CANCELLED") return "CANCELLED_AT_SOURCE";
  const { dayStart, due } = moments(event);
  if (now >= due) return "PAST_DUE_AWAITING_CONFIRMATION";
  return now >= dayStart ? "DUE_TODAY" : "UPCOMING";
}

/** The next instant after `now` at which the event's derived state changes by the clock alone; Infinity when none. */
export function derivedStateChangesAt(event: StateInputs, now: number): number {
  if (event.confirmed || event.status === "CANCELLED") return Number.POSITIVE_INFINITY;
  const { dayStart, due } = moments(event);
  if (now < dayStart) return dayStart;
  return now < due ? due : Number.POSITIVE_INFINITY;
}

/** When the event's scheduled date starts in its source zone, and when it falls due. */
function moments(event: StateInputs): { dayStart: number; due: number } {
  const day = dayBounds(event.scheduledDate, event.sourceTimezone);
  return { dayStart: day.start, due: event.scheduledAt === null ? day.end : Date.parse(event.scheduledAt) };
}
