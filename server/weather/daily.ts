import { Decimal } from "decimal.js";
import { DateTime } from "luxon";
import { isKnownZone } from "../time/zone-clock.ts";
import type { Condition, DailyRecord, ForecastWindow, WeatherPayload } from "./model.ts";

const HOUR_MS = 3_600_000;

/**
 * A provider period as a half-open interval of epoch milliseconds. The payload's times are the one UTC spelling the
 * service emits (met-instants.ts), which Date.parse reads exactly and much faster than luxon (docs/performance.md).
 */
interface Span {
  window: ForecastWindow;
  start: number;
  end: number;
}

interface CoverSpan extends Span {
  precipitationMm: number;
}

interface Instant {
  at: number;
  temperatureC: number | null;
}

/** One record per local calendar day in `zone` from the first provider step to the last. */
export function assembleDailyRecords(payload: WeatherPayload, zone: string): DailyRecord[] {
  if (!isKnownZone(zone)) throw new RangeError(`Unknown IANA time zone: ${zone}`);
  const spans = payload.windows.map(toSpan);
  const cover = precipitationCover(spans);
  const instants = payload.instantTemperatures.map(
    ({ at, temperatureC }): Instant => ({ at: Date.parse(at), temperatureC }),
  );
  const first = instants[0];
  const last = instants.at(-1);
  if (first === undefined || last === undefined) return [];

  const records: DailyRecord[] = [];
  let day = DateTime.fromMillis(first.at, { zone }).startOf("day");
  while (day.toMillis() <= last.at) {
    const next = day.plus({ days: 1 }).startOf("day");
    records.push(assembleDay(day, next.toMillis(), spans, cover, instants));
    day = next;
  }
  return records;
}

function assembleDay(day: DateTime, end: number, spans: Span[], cover: CoverSpan[], instants: Instant[]): DailyRecord {
  const start = day.toMillis();
  const startsInDay = (time: number) => time >= start && time < end;
  const counted = cover.filter((span) => startsInDay(span.start));
  const coveredMs = cover.reduce(
    (sum, span) => sum + Math.max(0, Math.min(span.end, end) - Math.max(span.start, start)),
    0,
  );

  const temperatures = [
    ...instants.filter((instant) => startsInDay(instant.at)).map((instant) => instant.temperatureC),
    ...spans
      .filter((span) => span.start >= start && span.end <= end)
      .flatMap((span) => [span.window.temperatureMinC, span.window.temperatureMaxC]),
  ].filter((value) => value !== null);

  return {
    date: day.toFormat("yyyy-MM-dd"),
    temperatureMinC: temperatures.length === 0 ? null : Math.min(...temperatures),
    temperatureMaxC: temperatures.length === 0 ? null : Math.max(...temperatures),
    precipitationMm: counted.length === 0 ? null : sumExactly(counted.map((span) => span.precipitationMm)),
    condition: noonCondition(day, spans) ?? longestCondition(counted),
    derivation: "SERVICE_DERIVED",
    transformation: ["AGGREGATION", "SYMBOL_MAPPING"],
    partial: coveredMs < end - start,
    // Floored: in a half-hour-offset zone a day is only reported as 24 hours once all of it is covered.
    hoursCovered: Math.floor(coveredMs / HOUR_MS),
  };
}

/** DAILY_RULES.precipitation's cover; only periods with an amount qualify, so a gap is uncovered hours, not zero. */
function precipitationCover(spans: Span[]): CoverSpan[] {
  const withAmount = spans.flatMap((span) =>
    span.window.precipitationMm === null ? [] : [{ ...span, precipitationMm: span.window.precipitationMm }],
  );
  const cover = withAmount.filter((span) => span.window.durationHours === 1);
  for (const span of withAmount) {
    if (span.window.durationHours === 6 && !cover.some((taken) => taken.start < span.end && span.start < taken.end)) {
      cover.push(span);
    }
  }
  return cover.sort((a, b) => a.start - b.start);
}

function noonCondition(day: DateTime, spans: Span[]): Condition | null {
  const noon = day.set({ hour: 12 }).toMillis();
  let best: { condition: Condition; distance: number } | null = null;
  for (const span of spans) {
    const condition = span.window.condition;
    if (span.window.durationHours !== 6 || condition === null || span.start > noon || span.end <= noon) continue;
    const distance = Math.abs((span.start + span.end) / 2 - noon);
    // Strictly nearer only: spans are in time order, so a tie keeps the earlier period.
    if (best === null || distance < best.distance) best = { condition, distance };
  }
  return best?.condition ?? null;
}

/** Weighted by hours (six 1-hour periods count as one 6-hour period); the earliest period speaks for its code. */
function longestCondition(counted: CoverSpan[]): Condition | null {
  const byCode = new Map<string, { condition: Condition; hours: number }>();
  for (const span of counted) {
    const condition = span.window.condition;
    if (condition === null) continue;
    const entry = byCode.get(condition.code) ?? { condition, hours: 0 };
    entry.hours += span.window.durationHours;
    byCode.set(condition.code, entry);
  }
  let best: { condition: Condition; hours: number } | null = null;
  for (const entry of byCode.values()) {
    if (best === null || entry.hours > best.hours) best = entry;
  }
  return best?.condition ?? null;
}

/** Decimal arithmetic so that 0.1 + 0.2 is 0.3, as the provider's one-decimal amounts mean. */
function sumExactly(values: number[]): number {
  return values.reduce((sum, value) => sum.plus(value), new Decimal(0)).toNumber();
}

function toSpan(window: ForecastWindow): Span {
  const start = Date.parse(window.startsAt);
  return { window, start, end: start + window.durationHours * HOUR_MS };
}
