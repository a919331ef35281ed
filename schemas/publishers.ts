import type { Publisher } from "./vocabularies.ts";

/** Who each publisher is and what their terms ask of anyone who shows their data. */
export const PUBLISHER_TERMS: Record<Publisher, { name: string; attributionText: string; required: boolean; licenseName: string; termsUrl: string }> = {
  BLS: {
    name: "U.S. Bureau of Labor Statistics",
    attributionText: "Source: U.S. Bureau of Labor Statistics",
    required: true,
    licenseName: "Public domain (U.S. Government work); citation requested",
    termsUrl: "https://www.bls.gov/opub/copyright-information.htm",
  },
  EUROSTAT: {
    name: "Eurostat",
    attributionText: "Source: Eurostat",
    required: true,
    licenseName: "CC BY 4.0 (Commission reuse policy)",
    termsUrl: "https://ec.europa.eu/eurostat/about-us/policies/copyright",
  },
  ECB: {
    name: "European Central Bank",
    attributionText: "Source: ECB statistics",
    required: true,
    licenseName: "ECB terms of use (reuse with source acknowledgement)",
    termsUrl: "https://www.ecb.europa.eu/services/using-our-site/disclaimer/html/index.en.html",
  },
};
