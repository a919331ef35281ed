import { Decimal } from "decimal.js";
import { DateTime } from "luxon";
import type { DerivedSeriesRule } from "../../schemas/registry.ts";

export interface DerivedValue {
  referencePeriod: string;
  value: string;
  inputs: { sourceSeriesId: string; referencePeriod: string; value: string }[];
}

/**
 * Year-ago percent change of a monthly or quarterly series, in exact decimal arithmetic:
 * (value[t] / value[t-1y] - 1) * 100, rounded half-up to the rule's decimal places.
 */
export function deriveYearAgoChange(rule: DerivedSeriesRule, inputSeriesId: string, input: Map<string, string | null>): DerivedValue[] {
  const derived: DerivedValue[] = [];
  for (const [period, value] of [...input].sort(([a], [b]) => a.localeCompare(b))) {
    const earlierPeriod = yearBefore(period);
    const earlier = earlierPeriod ? input.get(earlierPeriod) : null;
    if (value == null || earlier == null || new Decimal(earlier).isZero()) continue;
    const change = new Decimal(value).div(earlier).minus(1).times(100).toDecimalPlaces(rule.decimalPlaces, Decimal.ROUND_HALF_UP);
    derived.push({
      referencePeriod: period,
      value: change.toFixed(rule.decimalPlaces),
      inputs: [
        { sourceSeriesId: inputSeriesId, referencePeriod: period, value },
        { sourceSeriesId: inputSeriesId, referencePeriod: earlierPeriod!, value: earlier },
      ],
    });
  }
  return derived;
}

/** `2025-03` → `2024-03`, `2025-Q1` → `2024-Q1`; null for codes without a year-ago twin. */
function yearBefore(period: string): string | null {
  const month = DateTime.fromFormat(period, "yyyy-MM", { zone: "UTC" });
  if (month.isValid) return month.minus({ years: 1 }).toFormat("yyyy-MM");
  const quarter = /^(\d{4})-Q([1-4])$/.exec(period);
  return quarter ? `${Number(quarter[1]) - 1}-Q${quarter[2]}` : null;
}
