import { PUBLISHER_TERMS } from "../../schemas/publishers.ts";
import type { WeatherAttribution, WeatherSource } from "./model.ts";

const MET_TERMS = PUBLISHER_TERMS.MET_NORWAY;

/** Where every weather value comes from, and what MET Norway's licence asks of anyone who shows it (schemas/publishers.ts). */
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
