import type { Fields, Static } from "../../schemas/json-schema.ts";
import type * as contract from "../../schemas/responses/weather.ts";

/**
 * The records the weather routes serve, typed from their schemas (schemas/responses/weather.ts), in metric units.
 * Nothing here is shaped after the provider's payload: the MET mapping lives in normalise.ts, so another provider
 * could fill the same types. Where the contract leaves a field open, the service's type narrows it to what it sends.
 */
export type ConditionCode = (typeof contract.CONDITION_CODES)[number];
export type Condition = Omit<Static<typeof contract.conditionSchema>, "code"> & { code: ConditionCode };
export type DayPart = NonNullable<Condition["dayPart"]>;
export type WeatherLocation = Static<typeof contract.weatherLocationSchema>;
export type WeatherReading = Omit<Fields<typeof contract.metricReadingFields>, "condition"> & {
  condition: Condition | null;
};
type Provenance = Fields<typeof contract.provenanceFields>;
export type WeatherSource = Provenance["source"];
/** MET's licence requires the credit: the compiler checks every weather record says so. */
export type WeatherAttribution = Omit<Provenance["attribution"], "required"> & { required: true };
/** The routes add `units` when they answer. */
export type CurrentRecord = WeatherReading &
  Omit<Fields<typeof contract.recordHeadFields>, "units"> & { source: WeatherSource; attribution: WeatherAttribution };
export type HourlyEntry = WeatherReading & Fields<typeof contract.hourHeadFields>;
export type DailyRecord = Omit<Fields<typeof contract.metricDayFields>, "condition" | "transformation"> & {
  condition: Condition | null;
  transformation: ("AGGREGATION" | "SYMBOL_MAPPING")[];
};

/** A provider period of 1 or 6 hours from startsAt. Periods overlap: never add them up (daily.ts picks a cover). */
export interface ForecastWindow {
  startsAt: string;
  durationHours: 1 | 6;
  precipitationMm: number | null;
  /** Only 6-hour periods of the provider's complete document carry a minimum and maximum. */
  temperatureMinC: number | null;
  temperatureMaxC: number | null;
  condition: Condition | null;
}

/** The instant air temperature at one provider step, hourly and 6-hourly alike. */
export interface InstantTemperature {
  at: string;
  temperatureC: number | null;
}

/** What the cache keeps for one location: everything both weather routes answer from. */
export interface WeatherPayload {
  location: WeatherLocation;
  providerModelUpdatedAt: string;
  current: CurrentRecord;
  /** The provider's hourly range only (steps that start a 1-hour period), in time order. */
  hours: HourlyEntry[];
  /** Every 1-hour and 6-hour period the provider published, in time order, for daily aggregation. */
  windows: ForecastWindow[];
  /** Every step's instant temperature, in time order, for daily minimum and maximum beyond the hourly range. */
  instantTemperatures: InstantTemperature[];
}
