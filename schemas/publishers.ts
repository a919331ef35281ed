import type { CalendarSource, NewsFeed, ObservationApi, Publisher } from "./vocabularies.ts";

/** What a publisher's terms ask of anyone who shows its data, and where the publisher states them. */
export interface PublisherTerms {
  /** The `sourceId` of the publisher's `meta.attributionRecords` entry. */
  sourceId: string;
  name: string;
  /** The credit line records carry (`attribution.text`). */
  attributionText: string;
  /** Whether a consumer rendering the data must show the credit (spec: "must show the attribution where required"). */
  required: boolean;
  licenseName: string;
  /** The licence text itself, where the data is under a published licence; null for a public-domain work. */
  licenseUrl: string | null;
  /** The publisher's own page stating its reuse terms. */
  termsUrl: string;
}

/** Every publisher whose data the service serves: the economics publishers, the weather provider, the gazetteer. */
export type AttributedPublisher = Publisher | "MET_NORWAY" | "GEONAMES";

/**
 * The one table of publisher terms. Economics `sourceId`s are the publisher codes the data itself carries
 * (`release.publisher`, a series' `publisher`), so a client can join an attribution record to the rows it covers;
 * weather and places keep the source ids their data names (`source.id` of a weather record, `geonames`).
 */
export const PUBLISHER_TERMS = {
  BLS: {
    sourceId: "BLS",
    name: "U.S. Bureau of Labor Statistics",
    attributionText: "Source: U.S. Bureau of Labor Statistics",
    // "Linking and Copyright Information": BLS material is in the public domain (a U.S. Government work, 17 U.S.C.
    // 105) and may be reproduced without permission; BLS asks to be cited as the source. The terms of service of
    // its Public Data API, through which the values arrive, ask users of the API to show a notice that BLS cannot
    // vouch for data after they leave BLS.gov, so the credit is treated as owed rather than merely requested.
    required: true,
    licenseName: "Public domain (U.S. Government work); citation of BLS requested",
    licenseUrl: null,
    termsUrl: "https://www.bls.gov/bls/linksite.htm",
  },
  EUROSTAT: {
    sourceId: "EUROSTAT",
    name: "Eurostat",
    attributionText: "Source: Eurostat",
    // Eurostat's "Copyright notice and free re-use of data": statistical data and metadata may be reused, commercially
    // or not, provided the source is acknowledged (the Commission's reuse policy, Decision 2011/833/EU; its website
    // content is CC BY 4.0), and a reuse involving modifications to the data must say so clearly to the end user
    // (hence `modifiedByService`).
    required: true,
    licenseName: "Eurostat reuse policy (Commission Decision 2011/833/EU; CC BY 4.0), source acknowledged",
    licenseUrl: "https://eur-lex.europa.eu/eli/dec/2011/833/oj",
    termsUrl: "https://ec.europa.eu/eurostat/help/copyright-notice",
  },
  ECB: {
    sourceId: "ECB",
    name: "European Central Bank",
    attributionText: "Source: ECB statistics",
    // The ESCB policy for the reuse of ESCB statistics: publicly available statistics may be reused free of charge
    // provided the source is acknowledged ("Source: ECB statistics.") and the statistics, metadata included, are not
    // modified. The calendars and press feed come from the ECB website, whose copyright notice likewise permits
    // reproduction with the source acknowledged.
    required: true,
    licenseName: "ESCB statistics reuse policy (free reuse, source acknowledged, statistics unmodified)",
    licenseUrl: null,
    termsUrl:
      "https://www.ecb.europa.eu/stats/ecb_statistics/governance_and_quality_framework/html/usage_policy.en.html",
  },
  MET_NORWAY: {
    sourceId: "met-norway-locationforecast",
    name: "MET Norway",
    // "Based on data from" is one of MET's suggested credits; it fits better than "Data from" because CC BY 4.0 asks
    // users to indicate changes, and the service remaps every field and derives the daily records.
    attributionText: "Based on data from MET Norway",
    required: true,
    // Quoting https://api.met.no/doc/License: NLOD 2.0 and Creative Commons 4.0 BY International, both apply.
    licenseName: "NLOD 2.0 and CC BY 4.0",
    licenseUrl: "https://api.met.no/doc/License",
    // MET's terms of service (identification, caching, traffic, attribution).
    termsUrl: "https://api.met.no/doc/TermsOfService",
  },
  GEONAMES: {
    sourceId: "geonames",
    name: "GeoNames",
    // "Based on": CC BY 4.0 asks users to indicate changes, and the service folds names, drops fields and reads zero
    // populations as unknown.
    attributionText: "Place data based on GeoNames (geonames.org), CC BY 4.0",
    required: true,
    licenseName: "CC BY 4.0",
    licenseUrl: "https://creativecommons.org/licenses/by/4.0/",
    // The dump readme carries GeoNames' licence statement and its "as is" terms.
    termsUrl: "https://download.geonames.org/export/dump/readme.txt",
  },
} as const satisfies Record<AttributedPublisher, PublisherTerms>;

/** The publisher behind each economics source slug: its calendars, its data API and its announcement feed. */
export const SOURCE_PUBLISHERS: Record<CalendarSource | ObservationApi | NewsFeed, Publisher> = {
  "labour-stats-release-schedule": "BLS",
  "bls-api": "BLS",
  "bls-news-feed": "BLS",
  "eu-stats-release-calendar": "EUROSTAT",
  "eurostat-sdmx": "EUROSTAT",
  "central-bank-meetings-calendar": "ECB",
  "central-bank-statistics-calendar": "ECB",
  "ecb-data": "ECB",
  "ecb-press-feed": "ECB",
};
