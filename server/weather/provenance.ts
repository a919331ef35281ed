import { PUBLISHER_TERMS } from "../../schemas/publishers.ts";
import type { WeatherAttribution, WeatherSource } from "./model.ts";

const MET_TERMS = PUBLISHER_TERMS.MET_NORWAY;

/** Where every weather value comes from, and what MET's licence asks of anyone who shows it (schemas/publishers.ts). */
export const MET_SOURCE: WeatherSource = {
  id: MET_TERMS.sourceId,
  name: "MET Norway Locationforecast 2.0",
  url: "https://api.met.no/weatherapi/locationforecast/2.0/",
};

export const MET_ATTRIBUTION: WeatherAttribution = {
  text: MET_TERMS.attributionText,
  required: MET_TERMS.required,
  licenseName: MET_TERMS.licenseName,
  licenseUrl: MET_TERMS.licenseUrl,
};

/** Open the `properties.meta.notice` of every document `service demo-met` serves; MET's own carry no notice. */
export const NOT_REAL_WEATHER = "NOT REAL WEATHER";

/**
 * A stand-in document's values: one recorded MET forecast (MET's licence applies) served at points and hours it was
 * never made for. The label travels in the records' source and attribution and in `meta.attributionRecords`.
 */
export const STANDIN_SOURCE: WeatherSource = {
  id: "met-norway-standin-not-real-weather",
  name: `${NOT_REAL_WEATHER}: a local stand-in for MET Norway Locationforecast 2.0 (service demo-met) serving one recorded forecast at every point and hour`,
  url: MET_SOURCE.url,
};

export const STANDIN_ATTRIBUTION: WeatherAttribution = {
  ...MET_ATTRIBUTION,
  text: `${NOT_REAL_WEATHER} (a recorded forecast replayed by service demo-met). ${MET_ATTRIBUTION.text}`,
};

/** The source and attribution of a MET document's records, from the document's own `properties.meta`. */
export function provenanceOf(meta: object): { source: WeatherSource; attribution: WeatherAttribution } {
  const notice = "notice" in meta ? meta.notice : undefined;
  const standin = typeof notice === "string" && notice.startsWith(NOT_REAL_WEATHER);
  return standin
    ? { source: STANDIN_SOURCE, attribution: STANDIN_ATTRIBUTION }
    : { source: MET_SOURCE, attribution: MET_ATTRIBUTION };
}
