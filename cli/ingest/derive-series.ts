import { Decimal } from "decimal.js";
import { DateTime } from "luxon";
import { leastFinalStatus } from "../../schemas/publication-status.ts";
import { periodBefore } from "../../schemas/reference-periods.ts";
import type { DerivedSeriesRule } from "../../schemas/registry.ts";
import type { DerivedInput } from "../../schemas/value-provenance.ts";
import type { Publisher, ValueTransformation } from "../../schemas/vocabularies.ts";
import { lastTargetBusinessDay } from "./target-business-days.ts";

/** One current input value as the ledger holds it, with the vintage and document it is. */
export interface InputVintage {
  referencePeriod: string;
  value: string | null;
  /** The publisher's status of the value (`P`, `p`, `A`), as written. */
  publicationStatus: string | null;
  note: string | null;
  sequence: number;
  documentSha256: string | null;
  documentFetchedAt: string | null;
}

interface DerivedValue {
  referencePeriod: string;
  value: string | null;
  /**
   * The least final publication status of its inputs (schemas/publication-status.ts): a value computed from a
   * provisional input is provisional, and a change of an input's status alone changes the derived value's, a revision.
   */
  publicationStatus: string | null;
  /** Why there is no value, where an input is the publisher's gap. */
  note: string | null;
  inputs: DerivedInput[];
}

/** What each kind of rule does to its inputs (provenance `transformation`). */
export const DERIVATION_TRANSFORMATIONS: Record<DerivedSeriesRule["kind"], ValueTransformation[]> = {
  PERCENT_CHANGE_YEAR_AGO: ["PERCENT_CHANGE_YEAR_AGO", "ROUNDED_HALF_UP"],
  PERCENT_CHANGE_PREVIOUS_PERIOD: ["PERCENT_CHANGE_PREVIOUS_PERIOD", "ROUNDED_HALF_UP"],
  LEVEL_IN_FORCE_AT_PERIOD_END: ["LEVEL_IN_FORCE_AT_PERIOD_END"],
  VALUE_ON_LAST_TARGET_BUSINESS_DAY: ["VALUE_ON_LAST_TARGET_BUSINESS_DAY"],
};

/**
 * Every value of a derived series, from the current vintages of its input (oldest period first), in exact decimal
 * arithmetic, each with the least final status of the inputs it used (`publisher`'s codes). `asOf` is when the input
 * was last read: a month whose last day is still to come has no level in force at its end yet.
 */
export function deriveValues(
  rule: DerivedSeriesRule,
  publisher: Publisher,
  inputSeriesId: string,
  inputs: InputVintage[],
  asOf: string | null,
): DerivedValue[] {
  return derivedWithoutStatus(rule, inputSeriesId, inputs, asOf).map((derived) => ({
    ...derived,
    publicationStatus: leastFinalStatus(
      publisher,
      derived.inputs.map((input) => input.publicationStatus),
    ),
  }));
}

function derivedWithoutStatus(
  rule: DerivedSeriesRule,
  inputSeriesId: string,
  inputs: InputVintage[],
  asOf: string | null,
): Omit<DerivedValue, "publicationStatus">[] {
  switch (rule.kind) {
    case "PERCENT_CHANGE_YEAR_AGO":
      return derivePercentChange(yearBefore, rule.decimalPlaces ?? 0, inputSeriesId, inputs);
    case "PERCENT_CHANGE_PREVIOUS_PERIOD":
      return derivePercentChange(periodBefore, rule.decimalPlaces ?? 0, inputSeriesId, inputs);
    case "LEVEL_IN_FORCE_AT_PERIOD_END":
      return deriveLevelAtMonthEnd(inputSeriesId, inputs, asOf);
    case "VALUE_ON_LAST_TARGET_BUSINESS_DAY":
      return deriveValueOnLastBusinessDay(inputSeriesId, inputs);
  }
}

/**
 * (value[t] / value[base(t)] - 1) * 100, rounded half-up to `decimalPlaces`, for each period whose base period (a year
 * before, or the period before) is held. When either input is the publisher's gap (a period it states without a value),
 * the derived period is stated too, as null with the reason, so the gap is never silently dropped.
 */
function derivePercentChange(
  base: (period: string) => string | null,
  decimalPlaces: number,
  inputSeriesId: string,
  inputs: InputVintage[],
): Omit<DerivedValue, "publicationStatus">[] {
  const byPeriod = new Map(inputs.map((input) => [input.referencePeriod, input]));
  const derived: Omit<DerivedValue, "publicationStatus">[] = [];
  for (const current of inputs) {
    const earlierPeriod = base(current.referencePeriod);
    const earlier = earlierPeriod ? byPeriod.get(earlierPeriod) : undefined;
    if (!earlier || (earlier.value !== null && new Decimal(earlier.value).isZero())) continue;
    const used = [inputOf(inputSeriesId, current), inputOf(inputSeriesId, earlier)];
    const gap = [current, earlier].find((input) => input.value === null);
    if (gap) {
      derived.push({
        referencePeriod: current.referencePeriod,
        value: null,
        note: gapNote(inputSeriesId, gap),
        inputs: used,
      });
      continue;
    }
    const change = new Decimal(current.value!)
      .div(earlier.value!)
      .minus(1)
      .times(100)
      .toDecimalPlaces(decimalPlaces, Decimal.ROUND_HALF_UP);
    derived.push({
      referencePeriod: current.referencePeriod,
      value: change.toFixed(decimalPlaces),
      note: null,
      inputs: used,
    });
  }
  return derived;
}

/**
 * The level in force on the last day of each month, from the dates on which the publisher says it changed: the value of
 * the latest change dated on or before that day, as the publisher wrote it. Months run from that of the first change to
 * the last month that had ended by `asOf` (the input's fetch instant): a month ends when the next one starts, at
 * midnight UTC, so a document fetched on a month's last day states nothing for that month. Before the first change
 * nothing is known, so nothing is stated.
 */
function deriveLevelAtMonthEnd(
  inputSeriesId: string,
  inputs: InputVintage[],
  asOf: string | null,
): Omit<DerivedValue, "publicationStatus">[] {
  const changes = inputs.filter((input) => /^\d{4}-\d{2}-\d{2}$/.test(input.referencePeriod));
  // Read at an unknown time, the changes show no month to have ended.
  if (changes.length === 0 || asOf === null) return [];
  const fetched = DateTime.fromISO(asOf, { zone: "utc" }).toMillis();
  const derived: Omit<DerivedValue, "publicationStatus">[] = [];
  let position = 0;
  for (
    let month = DateTime.fromISO(changes[0]!.referencePeriod, { zone: "utc" }).startOf("month");
    month.plus({ months: 1 }).toMillis() <= fetched;
    month = month.plus({ months: 1 })
  ) {
    const monthEnd = month.endOf("month").toISODate()!;
    while (position + 1 < changes.length && changes[position + 1]!.referencePeriod <= monthEnd) position++;
    const inForce = changes[position]!;
    const used = [inputOf(inputSeriesId, inForce)];
    derived.push({
      referencePeriod: month.toFormat("yyyy-MM"),
      value: inForce.value,
      note: inForce.value === null ? gapNote(inputSeriesId, inForce) : null,
      inputs: used,
    });
  }
  return derived;
}

/**
 * The value a daily series states for the last TARGET business day of each month (the €STR, stated for every TARGET
 * day and published the next one), as the publisher wrote it. A month is stated only once that day's own value has been
 * read: a month whose data end earlier (a document asked for a shorter range, or read before that day's rate was
 * published, which is the business day after it) is not complete and gets no value, and neither does a month with no
 * daily value at all. Unlike a level that holds until it changes, a daily rate says nothing about the days after it.
 */
function deriveValueOnLastBusinessDay(
  inputSeriesId: string,
  inputs: InputVintage[],
): Omit<DerivedValue, "publicationStatus">[] {
  const byDay = new Map(
    inputs
      .filter((input) => /^\d{4}-\d{2}-\d{2}$/.test(input.referencePeriod))
      .map((input) => [input.referencePeriod, input]),
  );
  const months = [...new Set([...byDay.keys()].map((day) => day.slice(0, 7)))].sort();
  const derived: Omit<DerivedValue, "publicationStatus">[] = [];
  for (const month of months) {
    const last = byDay.get(lastTargetBusinessDay(month));
    if (!last) continue;
    derived.push({
      referencePeriod: month,
      value: last.value,
      note: last.value === null ? gapNote(inputSeriesId, last) : null,
      inputs: [inputOf(inputSeriesId, last)],
    });
  }
  return derived;
}

function inputOf(sourceSeriesId: string, input: InputVintage): DerivedInput {
  const daily = input.referencePeriod.length === 10;
  return {
    sourceSeriesId,
    referencePeriod: daily ? input.referencePeriod.slice(0, 7) : input.referencePeriod,
    ...(daily ? { sourcePeriod: input.referencePeriod } : {}),
    value: input.value,
    publicationStatus: input.publicationStatus,
    vintage: input.sequence,
    document: input.documentSha256 ? { sha256: input.documentSha256, fetchedAt: input.documentFetchedAt } : null,
  };
}

function gapNote(inputSeriesId: string, gap: InputVintage): string {
  return `No value: the publisher states ${inputSeriesId} ${gap.referencePeriod} without one${gap.note ? ` (${gap.note})` : ""}.`;
}

/** `2025-03` → `2024-03`, `2025-Q1` → `2024-Q1`; null for codes without a year-ago twin. */
function yearBefore(period: string): string | null {
  const month = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(period);
  if (month) return `${Number(month[1]) - 1}-${month[2]}`;
  const quarter = /^(\d{4})-Q([1-4])$/.exec(period);
  return quarter ? `${Number(quarter[1]) - 1}-Q${quarter[2]}` : null;
}
