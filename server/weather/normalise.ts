import type { MetDocument, MetTimeStep } from "./met-document.ts";
import { readMetInstant } from "./met-instants.ts";
import type {
  ForecastWindow,
  HourlyEntry,
  InstantTemperature,
  WeatherLocation,
  WeatherPayload,
  WeatherReading,
} from "./model.ts";
import { provenanceOf } from "./provenance.ts";
import { toCondition } from "./symbols.ts";

/** A validated MET document in the service's model; nothing MET did not send is filled in. */
export function normaliseMetDocument(doc: MetDocument): WeatherPayload {
  const [lon, lat, altitude] = doc.geometry.coordinates;
  const location: WeatherLocation = { latitude: lat, longitude: lon, altitudeMetres: altitude ?? null };
  const providerModelUpdatedAt = toUtcIso(doc.properties.meta.updated_at);
  const steps = doc.properties.timeseries;
  const [first] = steps;

  return {
    location,
    providerModelUpdatedAt,
    current: {
      location,
      observedAt: toUtcIso(first.time),
      providerModelUpdatedAt,
      ...readingAt(first),
      // MET's, or the demo stand-in's label when the document says it is not real weather.
      ...provenanceOf(doc.properties.meta),
    },
    hours: steps
      .filter((step) => step.data.next_1_hours !== undefined)
      .map((step): HourlyEntry => ({ startsAt: toUtcIso(step.time), ...readingAt(step) })),
    windows: steps.flatMap(windowsStartingAt),
    instantTemperatures: steps.map(instantTemperature),
  };
}

function readingAt(step: MetTimeStep): WeatherReading {
  const details = step.data.instant.details;
  return {
    temperatureC: details.air_temperature ?? null,
    windSpeedMps: details.wind_speed ?? null,
    humidityPercent: details.relative_humidity ?? null,
    pressureHpa: details.air_pressure_at_sea_level ?? null,
    windDirectionDegrees: details.wind_from_direction ?? null,
    cloudCoverPercent: details.cloud_area_fraction ?? null,
    // MET publishes only the clear-sky UV index (the value if there were no clouds), so that is what this carries.
    uvIndex: details.ultraviolet_index_clear_sky ?? null,
    precipitationMm: step.data.next_1_hours?.details?.precipitation_amount ?? null,
    condition: toCondition(nearestSymbol(step)),
  };
}

/** The symbol of the shortest period starting at the step: the one that says most about that moment. */
function nearestSymbol(step: MetTimeStep): string | null {
  const { next_1_hours: hour, next_6_hours: sixHours, next_12_hours: twelveHours } = step.data;
  return hour?.summary?.symbol_code ?? sixHours?.summary?.symbol_code ?? twelveHours?.summary?.symbol_code ?? null;
}

function windowsStartingAt(step: MetTimeStep): ForecastWindow[] {
  const startsAt = toUtcIso(step.time);
  const { next_1_hours: hour, next_6_hours: sixHours } = step.data;
  const windows: ForecastWindow[] = [];
  if (hour !== undefined) {
    windows.push({
      startsAt,
      durationHours: 1,
      precipitationMm: hour.details?.precipitation_amount ?? null,
      temperatureMinC: null,
      temperatureMaxC: null,
      condition: toCondition(hour.summary?.symbol_code ?? null),
    });
  }
  if (sixHours !== undefined) {
    windows.push({
      startsAt,
      durationHours: 6,
      precipitationMm: sixHours.details?.precipitation_amount ?? null,
      temperatureMinC: sixHours.details?.air_temperature_min ?? null,
      temperatureMaxC: sixHours.details?.air_temperature_max ?? null,
      condition: toCondition(sixHours.summary?.symbol_code ?? null),
    });
  }
  return windows;
}

function instantTemperature(step: MetTimeStep): InstantTemperature {
  return { at: toUtcIso(step.time), temperatureC: step.data.instant.details.air_temperature ?? null };
}

/** One spelling for every instant the service emits, whatever offset the provider wrote (parseMetDocument read each). */
function toUtcIso(text: string): string {
  return readMetInstant(text)!.utcIso;
}
