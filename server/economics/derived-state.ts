import { DateTime } from "luxon";
import type { DERIVED_STATES } from "../../schemas/responses/economics.ts";

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
  const clock = DateTime.fromMillis(now, { zone: event.sourceTimezone });
  const day = DateTime.fromISO(event.scheduledDate, { zone: event.sourceTimezone });
  const due = event.scheduledAt ? DateTime.fromISO(event.scheduledAt) : day.plus({ days: 1 });
  if (clock >= due) return "PAST_DUE_AWAITING_CONFIRMATION";
  return clock >= day ? "DUE_TODAY" : "UPCOMING";
}
