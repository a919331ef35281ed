import { DateTime } from "luxon";

/** Reference periods and their codes (`YYYY-MM-DD`, `YYYY-MM`, `YYYY-Q<n>`, `YYYY`), read the same way everywhere. */

export const REFERENCE_PERIOD_KINDS = ["DAY", "MONTH", "QUARTER", "YEAR"] as const;
export type ReferencePeriodKind = (typeof REFERENCE_PERIOD_KINDS)[number];

export interface ReferencePeriod {
  kind: ReferencePeriodKind;
  /** `YYYY-MM-DD`, `YYYY-MM`, `YYYY-Q<n>` or `YYYY`. */
  code: string;
  /** First and last day of the period, `YYYY-MM-DD`. */
  startDate: string;
  endDate: string;
}

/** A way a publisher writes one period, as a luxon format, and the kind of period it denotes. */
export interface PeriodFormat {
  format: string;
  kind: ReferencePeriodKind;
}

const UNIT: Record<ReferencePeriodKind, "day" | "month" | "quarter" | "year"> = {
  DAY: "day",
  MONTH: "month",
  QUARTER: "quarter",
  YEAR: "year",
};
const CODE_FORMAT: Record<ReferencePeriodKind, string> = {
  DAY: "yyyy-MM-dd",
  MONTH: "yyyy-MM",
  QUARTER: "yyyy-'Q'q",
  YEAR: "yyyy",
};

/** SDMX `TIME_PERIOD` values (Eurostat, ECB) that have a code in our vocabulary; weeks and half-years do not. */
export const SDMX_PERIOD_FORMATS: PeriodFormat[] = [
  { format: "yyyy-MM-dd", kind: "DAY" },
  { format: "yyyy-MM", kind: "MONTH" },
  { format: "yyyy-'Q'q", kind: "QUARTER" },
  { format: "yyyy", kind: "YEAR" },
];

/** The period of the given kind that contains `start`, with its code and first and last days. */
export function referencePeriodAt(kind: ReferencePeriodKind, start: DateTime): ReferencePeriod {
  const first = start.startOf(UNIT[kind]);
  return {
    kind,
    code: first.toFormat(CODE_FORMAT[kind]),
    startDate: first.toISODate()!,
    endDate: first.endOf(UNIT[kind]).toISODate()!,
  };
}

/**
 * Reads a period text that matches one of the formats exactly (after trimming), else null: texts naming two
 * periods, ranges, editions or two-digit years are not guessed at. Calendar dates only, so UTC is the zone.
 */
export function parsePeriodText(text: string, formats: readonly PeriodFormat[]): ReferencePeriod | null {
  const trimmed = text.trim();
  for (const { format, kind } of formats) {
    const parsed = DateTime.fromFormat(trimmed, format, { zone: "utc", locale: "en" });
    if (parsed.isValid) return referencePeriodAt(kind, parsed);
  }
  return null;
}

/** The last day of a period code of our vocabulary (`2025-03` → `2025-03-31`), or null for a code we do not use. */
export function periodEndDate(code: string): string | null {
  return parsePeriodText(code, SDMX_PERIOD_FORMATS)?.endDate ?? null;
}

/**
 * The code of the period immediately before `code`, of the same kind (`2026-01` → `2025-12`, `2026-Q1` → `2025-Q4`,
 * `2026-03-01` → `2026-02-28`, `2026` → `2025`), or null for a code we do not use.
 */
export function periodBefore(code: string): string | null {
  const period = parsePeriodText(code, SDMX_PERIOD_FORMATS);
  if (period === null || period.code !== code) return null;
  const start = DateTime.fromISO(period.startDate, { zone: "utc" });
  return referencePeriodAt(period.kind, start.minus({ [UNIT[period.kind]]: 1 })).code;
}
