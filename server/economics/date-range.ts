import { DateTime } from "luxon";
import type { ErrorCode } from "../../schemas/errors.ts";
import type { DateWindow } from "../../schemas/limits.ts";
import { ApiError } from "../http/api-error.ts";
import { givenValue } from "../http/params.ts";

export interface DateRange {
  from: DateTime;
  /** The last instant an inclusive window admits: just before the next day for a bare `to` date, else `to` itself. */
  toInclusive: DateTime;
  /** The UTC dates of `from` and of the end (a bare `to` date's next day, else the instant), for `scheduledDate`. */
  fromDate: string;
  toDate: string;
  /** When a default window moves on (the next day starts in the zone); Infinity when the request named its bounds. */
  movesAt: number;
}

interface RangeRules {
  zone: string;
  window: DateWindow;
  errorCode: ErrorCode;
}

const BARE_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** An instant must carry its zone: `Z` or `±hh:mm` (or `±hhmm`), hours 00-23 and minutes 00-59 (RFC 3339). */
const ZONED_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/;
/** RFC 3339 allows a leap second (`…:60`), which luxon does not: it is read as the last millisecond before it. */
const LEAP_SECOND = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}):60(\.\d{1,9})?/;

/**
 * `from`/`to` as bare dates in the zone or instants with a zone. A bare `to` is the start of the following day, so
 * after reduction to UTC dates it can admit events of the next UTC day (spec events "Range rules"). Defaults: today in
 * the zone minus the window's `daysBack` through plus its `daysAhead`.
 */
export function parseDateRange(query: URLSearchParams, now: number, rules: RangeRules): DateRange {
  const { daysBack, daysAhead, maxDays } = rules.window;
  const fromText = givenValue(query.get("from"));
  const toText = givenValue(query.get("to"));
  const today = DateTime.fromMillis(now, { zone: rules.zone }).startOf("day");
  const span = { days: daysBack + daysAhead };
  const from = fromText === null ? null : parseBound(fromText, rules, false);
  const to = toText === null ? null : parseBound(toText, rules, true);
  const start = from ?? (to ? to.minus(span) : today.minus({ days: daysBack }));
  const end = to ?? (from ? start.plus(span) : today.plus({ days: daysAhead + 1 }));
  if (start >= end) throw new ApiError(rules.errorCode, "from must be before to.");
  if (end.diff(start, "days").days > maxDays)
    throw new ApiError(rules.errorCode, `The range may span at most ${maxDays} days.`);
  return {
    from: start,
    toInclusive: toText !== null && !BARE_DATE.test(toText) ? end : end.minus({ milliseconds: 1 }),
    fromDate: start.toUTC().toISODate()!,
    toDate: end.toUTC().toISODate()!,
    movesAt: from || to ? Number.POSITIVE_INFINITY : today.plus({ days: 1 }).toMillis(),
  };
}

/**
 * `asOf` of the vintage questions: an instant with its zone, or a bare date meaning the end of that day in UTC; null
 * when not given. Returned as UTC text in the index's form (`…T…:SS.sssZ`), compared as a string.
 */
export function parseAsOf(raw: string | null): string | null {
  const given = givenValue(raw);
  if (given === null) return null;
  const text = given.replace(LEAP_SECOND, "$1:59.999");
  const parsed = dateOrInstant(text, "utc", "VALIDATION_FAILED", "asOf");
  const utc = (BARE_DATE.test(text) ? parsed.endOf("day") : parsed).toUTC().toISO()!;
  // Years beyond 0000-9999 in UTC have no RFC 3339 form (and would not compare as text with recorded instants).
  if (!/^\d{4}-/.test(utc))
    throw new ApiError("VALIDATION_FAILED", "asOf must fall within the years 0000 to 9999 in UTC.");
  return utc;
}

/** A bare date (the start of that day in `zone`) or an instant with its zone; `code` for any other form. */
function dateOrInstant(text: string, zone: string, code: ErrorCode, name: "asOf" | "from and to"): DateTime {
  const parsed = BARE_DATE.test(text)
    ? DateTime.fromISO(text, { zone })
    : ZONED_INSTANT.test(text)
      ? DateTime.fromISO(text, { setZone: true })
      : null;
  if (parsed === null) throw new ApiError(code, `${name} must be YYYY-MM-DD or an instant with Z or an offset.`);
  if (!parsed.isValid) throw new ApiError(code, `${name === "asOf" ? "asOf" : "from or to"} is not a real date.`);
  return parsed;
}

function parseBound(text: string, rules: RangeRules, isEnd: boolean): DateTime {
  const parsed = dateOrInstant(text, rules.zone, rules.errorCode, "from and to");
  return isEnd && BARE_DATE.test(text) ? parsed.plus({ days: 1 }) : parsed;
}
