/**
 * The shape of a synthetic archive, decided once from the options so that the registry and every document agree:
 * which releases and series exist, which publisher each belongs to, and the months the archive spans. Everything is
 * a pure function of the options (no randomness), so two generations with the same options are byte-identical.
 */

export interface SyntheticOptions {
  /** Calendar events wanted at least (BLS schedule plus Eurostat calendar; each release has one event a month). */
  events?: number;
  /** Observation series (BLS, Eurostat and ECB, about 50/30/20). */
  series?: number;
  /** Snapshots of every series; each later one revises every value, so vintages = series × months × vintages. */
  vintages?: number;
  /** Years of monthly reference periods, ending with LAST_YEAR. */
  years?: number;
}

export type SyntheticPublisher = "BLS" | "EUROSTAT" | "ECB";

export interface SyntheticRelease {
  slug: string;
  publisher: SyntheticPublisher;
  /** The exact title the calendar documents carry; the registry pattern matches it. */
  title: string;
  /** Day of the month (1..28) on which the release comes out, the month after its reference month. */
  day: number;
  seriesSlugs: string[];
}

export interface SyntheticSeries {
  slug: string;
  publisher: SyntheticPublisher;
  /** Position among the series of its publisher, for identifiers and values. */
  ordinal: number;
  /** The publisher's identifier as the documents write it (BLS series id, ECB KEY, Eurostat key values). */
  upstreamId: string;
}

export interface SyntheticPlan {
  firstYear: number;
  years: number;
  vintages: number;
  releases: SyntheticRelease[];
  series: SyntheticSeries[];
  /** Reference months `YYYY-MM`, oldest first. */
  months: string[];
}

/** The archive ends with a fixed year, not the clock's, so that generation is reproducible. */
export const LAST_YEAR = 2026;

/** At least the targets of the performance issue: 100,000 events over 20 years, 1,000,000 vintages (2,100 × 240 months × 2) across 2,000 series. */
export const DEFAULTS = { events: 100_000, series: 2_100, vintages: 2, years: 20 } as const;

const pad = (value: number, width = 4) => String(value).padStart(width, "0");

export function planArchive(options: SyntheticOptions = {}): SyntheticPlan {
  const events = positive(options.events ?? DEFAULTS.events, "events");
  const seriesCount = positive(options.series ?? DEFAULTS.series, "series");
  const vintages = positive(options.vintages ?? DEFAULTS.vintages, "vintages");
  const years = positive(options.years ?? DEFAULTS.years, "years");
  const firstYear = LAST_YEAR - years + 1;
  const months = Array.from(
    { length: years * 12 },
    (_, index) => `${firstYear + Math.floor(index / 12)}-${pad((index % 12) + 1, 2)}`,
  );

  const series = [
    ...seriesOf("BLS", Math.ceil(seriesCount * 0.5), (n) => `SYNTH${pad(n, 6)}`),
    ...seriesOf("EUROSTAT", Math.ceil(seriesCount * 0.3), (n) => `M.PC.EA21.SYN${pad(n, 5)}`),
  ];
  series.push(...seriesOf("ECB", seriesCount - series.length, (n) => `SYN.M.U2.EUR.S${pad(n, 5)}.LEV`));

  // One event a month per release; half the releases on the BLS schedule, half on the Eurostat calendar.
  const releaseCount = Math.ceil(events / months.length);
  const blsReleases = Math.ceil(releaseCount / 2);
  const releases = [
    ...releasesOf("BLS", blsReleases, series),
    ...releasesOf("EUROSTAT", releaseCount - blsReleases, series),
    // The ECB statistical calendar gets one small release, so that its source has something to match.
    ...releasesOf("ECB", 1, series),
  ];
  return { firstYear, years, vintages, releases, series, months };
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

function seriesOf(
  publisher: SyntheticPublisher,
  count: number,
  upstreamId: (ordinal: number) => string,
): SyntheticSeries[] {
  return Array.from({ length: Math.max(0, count) }, (_, index) => ({
    slug: `synthetic-${publisher.toLowerCase()}-series-${pad(index + 1, 5)}`,
    publisher,
    ordinal: index + 1,
    upstreamId: upstreamId(index + 1),
  }));
}

/** Series are dealt round-robin to the releases of their own publisher (the ECB release takes at most three). */
function releasesOf(publisher: SyntheticPublisher, count: number, allSeries: SyntheticSeries[]): SyntheticRelease[] {
  const own = allSeries.filter((entry) => entry.publisher === publisher);
  const releases = Array.from(
    { length: count },
    (_, index): SyntheticRelease => ({
      slug: `synthetic-${publisher.toLowerCase()}-release-${pad(index + 1)}`,
      publisher,
      title: `Synthetic ${publisher === "EUROSTAT" ? "Eurostat" : publisher} release ${pad(index + 1)}`,
      day: (index % 28) + 1,
      seriesSlugs: [],
    }),
  );
  const dealt = publisher === "ECB" ? own.slice(0, 3) : own;
  for (const [index, entry] of dealt.entries()) releases[index % count]!.seriesSlugs.push(entry.slug);
  return releases;
}

/** `2010-03` → the date in the following month on which a release of that reference month comes out. */
export function releaseDate(referenceMonth: string, day: number): { year: number; month: number; day: number } {
  const [year, month] = referenceMonth.split("-").map(Number) as [number, number];
  return month === 12 ? { year: year + 1, month: 1, day } : { year, month: month + 1, day };
}

/**
 * The published decimal text of one value: a level that drifts by series and month, moved by a hundredth in each
 * later snapshot so that every snapshot after the first is a revision (a new vintage) of every period.
 */
export function syntheticValue(series: SyntheticSeries, monthIndex: number, snapshot: number): string {
  const level = 100 + (series.ordinal % 97) + monthIndex * 0.125 + snapshot * 0.01;
  return level.toFixed(3);
}
