import { gregorianEaster } from "date-easter";
import { DateTime } from "luxon";

/**
 * TARGET (the Eurosystem's payment system, whose business days the ECB publishes its daily money-market rates for) is
 * closed on Saturdays and Sundays, New Year's Day, Good Friday, Easter Monday, 1 May, Christmas Day and 26 December: the
 * closing days the ECB has announced for TARGET2 and for T2, its successor from March 2023, over the whole life of the
 * €STR (first published for 1 October 2019).
 */
export function isTargetBusinessDay(date: DateTime): boolean {
  if (date.weekday >= 6) return false;
  const monthDay = date.toFormat("MM-dd");
  if (["01-01", "05-01", "12-25", "12-26"].includes(monthDay)) return false;
  const { month, day } = gregorianEaster(date.year);
  const easter = DateTime.utc(date.year, month, day);
  const [goodFriday, easterMonday] = [easter.minus({ days: 2 }).toISODate(), easter.plus({ days: 1 }).toISODate()];
  return date.toISODate() !== goodFriday && date.toISODate() !== easterMonday;
}

/** The last TARGET business day of the month `YYYY-MM`, as `YYYY-MM-DD` (30 March 2018: the 30th was Good Friday, so the 29th). */
export function lastTargetBusinessDay(month: string): string {
  let day = DateTime.fromISO(`${month}-01`, { zone: "utc" }).endOf("month").startOf("day");
  while (!isTargetBusinessDay(day)) day = day.minus({ days: 1 });
  return day.toISODate()!;
}
