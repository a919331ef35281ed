import { type EventSpec, eventIdOf, observation, type SyntheticSpec } from "./synthetic-index-spec.ts";

/**
 * The synthetic corpora of the economics tests, as descriptions for `syntheticDataDir` (economics-index.ts):
 * the edge-case corpus, and a corpus whose pages cross the 1 MB response ceiling.
 */

// ---------------------------------------------------------------------------------------------
// The edge-case corpus shared by the economics tests
// ---------------------------------------------------------------------------------------------

const LABOUR = "labour-stats-release-schedule";
const EUROSTAT = "eu-stats-release-calendar";
const MEETINGS = "central-bank-meetings-calendar";
const STATS = "central-bank-statistics-calendar";

export const EDGE_RUNS = {
  first: "2026-03-05T06:00:00.000Z",
  second: "2026-03-13T06:00:00.000Z",
  /** Partial: the BLS schedule failed in this run. */
  third: "2026-03-14T06:00:00.000Z",
} as const;

/**
 * Events of the edge corpus (2026-03-09 .. 2026-03-19, US DST already in force, EU not yet):
 * BLS events at 08:30 New York (12:30Z), Eurostat date-only, ECB under region EA.
 */
export const EDGE_EVENTS = {
  /** HIGH, US. Admitted by from=2026-03-10 read in Pacific/Kiritimati (UTC+14), not in UTC. */
  employment0309: {
    source: LABOUR,
    id: "syn-empsit-2026-03-09",
    title: "Employment Situation",
    date: "2026-03-09",
    at: "2026-03-09T12:30:00.000Z",
  },
  /** MEDIUM, US, no evidence ever: the timed past-due subject. */
  ppi0310: {
    source: LABOUR,
    id: "syn-ppi-2026-03-10",
    title: "Producer Price Index",
    date: "2026-03-10",
    at: "2026-03-10T12:30:00.000Z",
  },
  /** HIGH, US; confirmed by verified values of 2026-02 ingested in the second run. */
  cpi0311: {
    source: LABOUR,
    id: "syn-cpi-2026-03-11",
    title: "Consumer Price Index",
    date: "2026-03-11",
    at: "2026-03-11T12:30:00.000Z",
    period: "2026-02",
  },
  /** LOW, US, same instant as the CPI. */
  realEarnings0311: {
    source: LABOUR,
    id: "syn-realer-2026-03-11",
    title: "Real Earnings",
    date: "2026-03-11",
    at: "2026-03-11T12:30:00.000Z",
  },
  /** MEDIUM, US, later the same day. */
  jolts0311: {
    source: LABOUR,
    id: "syn-jolts-2026-03-11",
    title: "Job Openings and Labor Turnover Survey",
    date: "2026-03-11",
    at: "2026-03-11T14:00:00.000Z",
  },
  /** HIGH, EA, date-only with no evidence: the date-only past-due subject. */
  hicpFlash0312: {
    source: EUROSTAT,
    id: "syn-hicp-flash-2026-03-12",
    title: "Flash estimate inflation euro area",
    date: "2026-03-12",
    period: "2026-02",
  },
  /** HIGH, EA, date-only; confirmed by a verified value (ea-unemployment-rate 2026-01) from the second run. */
  unemployment0312: {
    source: EUROSTAT,
    id: "syn-une-2026-03-12",
    title: "Unemployment",
    date: "2026-03-12",
    period: "2026-01",
  },
  /** MEDIUM, EA; listed in the first run only, so the second run marks it CANCELLED. */
  industrialProduction0312: {
    source: EUROSTAT,
    id: "syn-indprod-2026-03-12",
    title: "Industrial production",
    date: "2026-03-12",
    period: "2026-01",
  },
  /** MEDIUM, US; 2026-03-17 in the first run, moved to 2026-03-18 in the second: RESCHEDULED. */
  eci0317: {
    source: LABOUR,
    id: "syn-eci-2025-q4",
    title: "Employment Cost Index",
    date: "2026-03-17",
    at: "2026-03-17T12:30:00.000Z",
    period: "2025-Q4",
  },
  /** MEDIUM, EA, date-only; the second run's calendar states it PUBLISHED. */
  hicp0318: {
    source: EUROSTAT,
    id: "syn-hicp-2026-03-18",
    title: "Inflation (HICP)",
    date: "2026-03-18",
    period: "2026-02",
  },
  /** HIGH, region EA (no country); date-only from the meetings calendar ... */
  ecbDecision0319: {
    source: MEETINGS,
    id: "syn-govc-2026-03-19",
    title: "ECB GovC: monetary policy meeting in Frankfurt (Day 2), followed by press conference",
    date: "2026-03-19",
  },
  /** ... and the statistics calendar attaches to it in the second run with a time (a second source on the canonical event). */
  ecbDecisionTimed0319: {
    source: STATS,
    id: "syn-statscal-mopo-2026-03-19",
    title: "Governing Council monetary policy meeting: press release",
    date: "2026-03-19",
    at: "2026-03-19T13:15:00.000Z",
  },
} satisfies Record<string, EventSpec>;

/** Moved ECI in the second run. */
/** The id each edge event gets in the index, by its name. */
export const EDGE_EVENT_IDS = Object.fromEntries(
  Object.entries(EDGE_EVENTS).map(([name, spec]) => [name, eventIdOf(spec)]),
) as Record<keyof typeof EDGE_EVENTS, string>;

export const ECI_MOVED: EventSpec = { ...EDGE_EVENTS.eci0317, date: "2026-03-18", at: "2026-03-18T12:30:00.000Z" };

/** 520 LOW Real Earnings events, 52 a day on 2027-01-04 .. 2027-01-13, for default page sizes and clamps. */
export const BULK = { count: 520, firstDate: "2027-01-04", lastDate: "2027-01-13", perDay: 52 } as const;
export const BULK_EVENTS: EventSpec[] = Array.from({ length: BULK.count }, (_, index) => {
  const day = String(4 + (index % 10)).padStart(2, "0");
  return {
    source: LABOUR,
    id: `syn-bulk-${String(index).padStart(3, "0")}`,
    title: "Real Earnings",
    date: `2027-01-${day}`,
    at: `2027-01-${day}T13:30:00.000Z`,
  };
});

/** US unemployment rate (LNS14000000): 520 monthly periods 1982-01 .. 2025-04, for page sizes and clamps. */
export const LONG_SERIES = {
  slug: "us-unemployment-rate",
  upstream: "LNS14000000",
  count: 520,
  first: "1982-01",
  last: "2025-04",
} as const;
export function longSeriesPeriod(index: number): string {
  const year = 1982 + Math.floor(index / 12);
  return `${year}-${String((index % 12) + 1).padStart(2, "0")}`;
}
function longSeriesValue(index: number): string {
  return index === LONG_SERIES.count - 1 ? "4.2" : (3 + (index % 70) / 10).toFixed(1);
}

const CPI_NSA = "CUUR0000SA0";
const CPI_SA = "CUSR0000SA0";
const EA_UNEMPLOYMENT = "une_rt_m.M.SA.TOTAL.PC_ACT.T.EA21";
const PAYROLLS = "CES0000000001";
const EA_GDP = "namq_10_gdp.Q.CLV_PCH_PRE.SCA.B1GQ.EA21";

const e = EDGE_EVENTS;

export const EDGE_SPEC: SyntheticSpec = {
  aliases: { [STATS]: MEETINGS },
  runs: [
    {
      at: EDGE_RUNS.first,
      calendars: {
        [LABOUR]: [e.employment0309, e.ppi0310, e.cpi0311, e.realEarnings0311, e.jolts0311, e.eci0317, ...BULK_EVENTS],
        [EUROSTAT]: [e.hicpFlash0312, e.unemployment0312, e.industrialProduction0312, e.hicp0318],
        [MEETINGS]: [e.ecbDecision0319],
      },
      observations: [
        observation("bls-api", CPI_NSA, "2025-01", "317.671"),
        observation("bls-api", CPI_NSA, "2025-02", "319.082"),
        observation("bls-api", CPI_NSA, "2026-01", "325.252"),
        observation("bls-api", CPI_SA, "2026-01", "326.588"),
        observation("eurostat-sdmx", EA_UNEMPLOYMENT, "2025-12", "6.3"),
        observation("eurostat-sdmx", EA_UNEMPLOYMENT, "2026-01", "6.2"),
        observation("bls-api", PAYROLLS, "2026-01", "159000", "P"),
        ...["2024-Q1", "2024-Q2", "2024-Q3", "2024-Q4", "2025-Q1", "2025-Q2", "2025-Q3", "2025-Q4"].map(
          (period, index) => observation("eurostat-sdmx", EA_GDP, period, (0.1 * (index + 1)).toFixed(1)),
        ),
        ...Array.from({ length: LONG_SERIES.count }, (_, index) =>
          observation("bls-api", LONG_SERIES.upstream, longSeriesPeriod(index), longSeriesValue(index)),
        ),
      ],
    },
    {
      at: EDGE_RUNS.second,
      calendars: {
        [LABOUR]: [e.employment0309, e.ppi0310, e.cpi0311, e.realEarnings0311, e.jolts0311, ECI_MOVED],
        [EUROSTAT]: [e.hicpFlash0312, e.unemployment0312, { ...e.hicp0318, status: "PUBLISHED" }],
        [MEETINGS]: [e.ecbDecision0319],
        [STATS]: [e.ecbDecisionTimed0319],
      },
      observations: [
        observation("bls-api", CPI_NSA, "2026-01", "325.252"),
        observation("bls-api", CPI_NSA, "2026-02", "326.000"),
        observation("bls-api", CPI_SA, "2026-02", "327.000"),
        observation("eurostat-sdmx", EA_UNEMPLOYMENT, "2026-01", "6.1"),
        // Same number, publication status dropped: a revision.
        observation("bls-api", PAYROLLS, "2026-01", "159000", null),
        // Formatting only: not a revision.
        observation("bls-api", LONG_SERIES.upstream, LONG_SERIES.last, "4.20"),
      ],
    },
    {
      at: EDGE_RUNS.third,
      observations: [observation("eurostat-sdmx", EA_UNEMPLOYMENT, "2026-01", "6.0")],
      incomplete: [LABOUR],
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// A corpus whose pages cross the 1 MB response ceiling
// ---------------------------------------------------------------------------------------------

/** 400 ECB statistics-calendar events with 2,500-character titles, 50 a day on 2026-05-04 .. 2026-05-11 (about 6 kB each). */
export const LONG_TITLES = { count: 400, from: "2026-05-04", to: "2026-05-11", titleLength: 2500 } as const;

/** The long-title corpus (built on each call: the titles weigh about 1 MB). */
export function longTitleSpec(): SyntheticSpec {
  return {
    runs: [
      {
        at: "2026-05-01T06:00:00.000Z",
        calendars: {
          [STATS]: Array.from({ length: LONG_TITLES.count }, (_, index) => {
            const day = String(4 + (index % 8)).padStart(2, "0");
            const title = `Monetary developments in the euro area: ${String(index).padStart(3, "0")} ${"x".repeat(LONG_TITLES.titleLength)}`;
            return {
              source: STATS,
              id: `syn-long-${index}`,
              title,
              date: `2026-05-${day}`,
              at: `2026-05-${day}T08:00:00.000Z`,
            };
          }),
        },
      },
    ],
  };
}
