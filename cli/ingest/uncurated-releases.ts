import type { Release } from "../../schemas/registry.ts";
import type { CalendarSource, Publisher, Region } from "../../schemas/vocabularies.ts";

/**
 * Releases the registry does not curate. Every record of every calendar is an event; a record whose title no release
 * of the registry claims gets a release of its own, built from what the source says: a slug from the publisher's
 * title, the publisher whose calendar lists it, and that calendar's official page (none of the calendars links a
 * release's own page). Importance stays UNCLASSIFIED and the release publishes no registered series, until the
 * registry curates it.
 */

/** What the service records of an uncurated release (the ledger's `uncurated_releases`). */
export interface UncuratedRelease {
  slug: string;
  /** The publisher's title when the release was first seen. */
  name: string;
  source: CalendarSource;
}

/**
 * Whose calendar each source is, where its official page is, and the geography its releases are filed under until
 * curated (the same as the curated releases of that publisher: BLS the United States, Eurostat and the ECB the euro area).
 * Eurostat's euro-indicator calendar also lists a few releases the ECB or the European Commission author; they stay
 * filed under the calendar's publisher, which is the one whose record is served.
 */
const CALENDARS: Record<
  CalendarSource,
  {
    publisher: Publisher;
    slugPrefix: string;
    pageUrl: string;
    country: string | null;
    region: Region | null;
    currency: string;
  }
> = {
  "labour-stats-release-schedule": {
    publisher: "BLS",
    slugPrefix: "bls",
    pageUrl: "https://www.bls.gov/schedule/news_release/",
    country: "US",
    region: null,
    currency: "USD",
  },
  "eu-stats-release-calendar": {
    publisher: "EUROSTAT",
    slugPrefix: "eurostat",
    pageUrl: "https://ec.europa.eu/eurostat/news/release-calendar",
    country: null,
    region: "EA",
    currency: "EUR",
  },
  "central-bank-meetings-calendar": {
    publisher: "ECB",
    slugPrefix: "ecb",
    pageUrl: "https://www.ecb.europa.eu/press/calendars/mgcgc/html/index.en.html",
    country: null,
    region: "EA",
    currency: "EUR",
  },
  "central-bank-statistics-calendar": {
    publisher: "ECB",
    slugPrefix: "ecb",
    pageUrl: "https://www.ecb.europa.eu/press/calendars/statscal/html/index.en.html",
    country: null,
    region: "EA",
    currency: "EUR",
  },
};

export const UNCLASSIFIED_BASIS =
  "Methodology v1, not reviewed: the registry does not curate this release, so no importance rule was applied (UNCLASSIFIED). It is listed because the publisher's calendar lists it.";

/** Long enough for every real title's words to tell releases apart; a slug stays readable in a URL. */
const MAX_SLUG_LENGTH = 80;

/**
 * The slug of a title the registry does not claim: the calendar's publisher prefix and the title's words, lower-cased
 * and hyphenated, accents dropped ("GDP and main aggregates / Employment" and "…aggregates/Employment" are one release).
 * Stable across runs and stores, since it depends on the title alone; a slug the registry already uses for another
 * release gets `-unclassified` appended, so that an uncurated release never borrows a curated one's identity.
 */
export function uncuratedSlug(source: CalendarSource, title: string, curatedSlugs: ReadonlySet<string>): string {
  const words = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  const prefix = CALENDARS[source].slugPrefix;
  // "ECB GovC: …" is not "ecb-ecb-govc-…".
  const base = words.startsWith(`${prefix}-`) ? words : `${prefix}-${words || "untitled"}`;
  const cut = base.length <= MAX_SLUG_LENGTH ? base : base.slice(0, MAX_SLUG_LENGTH).replace(/-[^-]*$/, "");
  return curatedSlugs.has(cut) ? `${cut}-unclassified` : cut;
}

/** The release record events of an uncurated release are served with. */
export function uncuratedReleaseRecord(release: UncuratedRelease): Release {
  const calendar = CALENDARS[release.source];
  return {
    slug: release.slug,
    name: release.name,
    publisher: calendar.publisher,
    officialPageUrl: calendar.pageUrl,
    country: calendar.country,
    region: calendar.region,
    currency: calendar.currency,
    category: "OTHER",
    importance: "UNCLASSIFIED",
    importanceBasis: UNCLASSIFIED_BASIS,
    seriesSlugs: [],
    headlineSeriesSlugs: [],
    titlePatterns: {},
  };
}
