import type {
  CalendarSource,
  Category,
  Frequency,
  Importance,
  ObservationApi,
  Publisher,
  Region,
  SeasonalAdjustment,
  SeriesTransformation,
} from "./vocabularies.ts";

/** A broad concept with no country, frequency, unit or value (spec "Registries"). */
export interface IndicatorFamily {
  slug: string;
  name: string;
  category: Category;
  description: string;
  relatedFamilySlugs: string[];
  active: boolean;
}

/** Where a series' values are ingested from: the publisher's own identifier. */
export interface UpstreamSeriesId {
  /** `bls-api` (BLS Public Data API v2), `eurostat-sdmx` (SDMX-CSV), `ecb-data` (ECB Data Portal csvdata). */
  api: ObservationApi;
  /** BLS series id, Eurostat dataset code, or ECB flow.key, e.g. `CUSR0000SA0`, `une_rt_m`, `FM.B.U2.EUR.4F.KR.DFR.LEV`. */
  id: string;
  /** Eurostat only: the dimension filter key of the dataset, e.g. `M.SA.TOTAL.PC_ACT.T.EA20`. */
  key?: string;
}

/**
 * A series the service computes from a publisher's values, vintaged like any other (cli/ingest/derive-series.ts):
 * `PERCENT_CHANGE_YEAR_AGO` or `PERCENT_CHANGE_PREVIOUS_PERIOD` of a registered series, rounded half-up to
 * `decimalPlaces`; `LEVEL_IN_FORCE_AT_PERIOD_END`,
 * the level in force on the last day of each month, of a publisher series that states only the dates on which the
 * level changed (the ECB key rates), read as `inputUpstream` and never served itself, since its dates are not
 * reference periods of ours; `VALUE_ON_LAST_TARGET_BUSINESS_DAY`, the value a daily publisher series (the €STR, read as
 * `inputUpstream`) states for the last TARGET business day of each month, for months whose last such day has been read.
 */
export interface DerivedSeriesRule {
  /** Human-readable formula including its rounding rule. */
  formula: string;
  kind:
    | "PERCENT_CHANGE_YEAR_AGO"
    | "PERCENT_CHANGE_PREVIOUS_PERIOD"
    | "LEVEL_IN_FORCE_AT_PERIOD_END"
    | "VALUE_ON_LAST_TARGET_BUSINESS_DAY";
  /** The registered series it is computed from; exactly one of this and `inputUpstream`. */
  inputSeriesSlug?: string;
  /** The publisher series it is computed from, read only as this input. */
  inputUpstream?: UpstreamSeriesId;
  /** Decimal places of the published result (half-up rounding); the two percent-change kinds only. */
  decimalPlaces?: number;
}

/** A measurable definition. It has no values (spec "Registries"). */
export interface Series {
  slug: string;
  familySlug: string;
  name: string;
  publisher: Publisher;
  /** ISO 3166-1 alpha-2, or null when the series is filed under a region. */
  country: string | null;
  region: Region | null;
  frequency: Frequency;
  unit: { code: string; scale: number };
  seasonalAdjustment: SeasonalAdjustment;
  transformation: SeriesTransformation;
  scope: string;
  officialSeriesUrl: string;
  /** Null for series the service derives. */
  upstream: UpstreamSeriesId | null;
  derived: DerivedSeriesRule | null;
  active: boolean;
}

/** A publisher's release family: what calendar events map onto. */
export interface Release {
  slug: string;
  name: string;
  publisher: Publisher;
  officialPageUrl: string;
  country: string | null;
  region: Region | null;
  currency: string;
  category: Category;
  importance: Importance;
  /** How the importance level was arrived at (our editorial methodology, not a market-impact claim). */
  importanceBasis: string;
  seriesSlugs: string[];
  /**
   * The release's headline figures among `seriesSlugs`, in the order the publisher's own release text states them. An
   * event's `values.actual` and `previous` come from the first of them the service holds a value of for the event's
   * period, else the next (docs/data.md, "Values of an event"). Empty for a release without registered series.
   */
  headlineSeriesSlugs: string[];
  /** Per calendar source: case-insensitive regular expressions matched against the source's event title. */
  titlePatterns: Partial<Record<CalendarSource, string[]>>;
  /** Case-insensitive regular expressions matched against the titles of the publisher's own announcements (news feeds). */
  newsTitlePatterns?: string[];
}

export interface Registry {
  families: IndicatorFamily[];
  series: Series[];
  releases: Release[];
}

/** The registry JSON the CLI publishes into the data directory and the server loads. */
export interface BuiltRegistry extends Registry {
  builtAt: string;
}

/** The publisher's identifier of a series as one string: BLS and ECB ids as they are, Eurostat `dataset.key`. */
export function upstreamSeriesKey(upstream: UpstreamSeriesId): string {
  return upstream.key ? `${upstream.id}.${upstream.key}` : upstream.id;
}

/** The ledger's key of a publisher series read only as a derivation's input: `<api>:<upstream key>`, which no slug can be. */
export function inputLedgerKey(upstream: UpstreamSeriesId): string {
  return `${upstream.api}:${upstreamSeriesKey(upstream)}`;
}

/** What a derived series is computed from, as the registry names it: the input series' slug, else the publisher's id. */
export function derivedInputName(rule: DerivedSeriesRule): string {
  return rule.inputSeriesSlug ?? upstreamSeriesKey(rule.inputUpstream!);
}
