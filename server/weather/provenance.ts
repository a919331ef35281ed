import type { WeatherAttribution, WeatherSource } from "./model.ts";

/** Where every weather value comes from, and what MET Norway's licence asks of anyone who shows it. */
export const MET_SOURCE: WeatherSource = {
  id: "met-norway-locationforecast",
  name: "MET Norway Locationforecast 2.0",
  url: "https://api.met.no/weatherapi/locationforecast/2.0/",
};

/** MET's terms of service (identification, caching, traffic), for the meta.attributionRecords termsUrl. */
export const MET_TERMS_URL = "https://api.met.no/doc/TermsOfService";

export const MET_ATTRIBUTION: WeatherAttribution = {
  // "Based on data from" is one of MET's suggested credits; it fits better than "Data from" because CC BY 4.0 asks
  // users to indicate changes, and the service remaps every field and derives the daily records.
  text: "Based on data from MET Norway",
  required: true,
  // Quoting https://api.met.no/doc/License: NLOD 2.0 and Creative Commons 4.0 BY International, both apply.
  licenseName: "NLOD 2.0 and CC BY 4.0",
  licenseUrl: "https://api.met.no/doc/License",
};
