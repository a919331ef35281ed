import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readRegistrySources } from "../../cli/commands/registry.ts";
import { applyCalendarSnapshot, stableEventId } from "../../cli/ingest/apply-calendar.ts";
import { applyObservations, createSeriesIndex } from "../../cli/ingest/apply-observations.ts";
import { publishIndex } from "../../cli/ingest/publish-index.ts";
import type { ReferencePeriod, SourceEvent, SourceObservation } from "../../cli/ingest/records.ts";
import { createReleaseMatcher } from "../../cli/ingest/release-matching.ts";
import { runIngestion } from "../../cli/ingest/run-ingestion.ts";
import { openStore } from "../../cli/ingest/store.ts";
import { DATA_FILES } from "../../schemas/data-files.ts";
import type { PublicationFacts } from "../../schemas/index-ddl.ts";
import type { CalendarSource, Scope } from "../../schemas/vocabularies.ts";

/**
 * Data directories holding a REAL published index, built by the real ingestion pipeline:
 * the bundled sample archive replayed in archive mode, or synthetic source records applied
 * through the same store, matching, vintage and publishing code the CLI runs.
 */

const SAMPLE_ARCHIVE_DIR = fileURLToPath(new URL("../../data/samples/", import.meta.url));

const createdDirs: string[] = [];

/**
 * Removes every data directory this module built and forgets the cached ones. Call it from the test file's
 * top-level `afterAll` (services copy the directory they are seeded with, so it is not needed after start-up).
 */
export function removeEconomicsDataDirs(): void {
  for (const dir of createdDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  sampleDir = null;
  edgeDir = null;
  longTitleDir = null;
}

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  createdDirs.push(dir);
  return dir;
}

// ---------------------------------------------------------------------------------------------
// (a) The real sample archive
// ---------------------------------------------------------------------------------------------

/** The fixed clock of the sample ingestion run: every run time, check time and `ingestedAt` is this instant. */
export const SAMPLE_INGESTED_AT = "2026-11-21T06:00:00.000Z";

let sampleDir: Promise<string> | null = null;

/** `data/samples` replayed by `runIngestion` in archive mode into a temp dir (built once per test process). */
export function sampleDataDir(): Promise<string> {
  sampleDir ??= (async () => {
    const dir = tempDir("economics-sample-");
    const now = Date.parse(SAMPLE_INGESTED_AT);
    const summary = await runIngestion({
      dataDir: dir,
      registry: readRegistrySources(new Date(now)),
      mode: { kind: "archive", dir: SAMPLE_ARCHIVE_DIR },
      only: null,
      now: () => now,
      progress: () => {},
    });
    if (summary.outcome !== "succeeded" || !summary.published) {
      throw new Error(`sample ingestion did not succeed: ${JSON.stringify(summary.sources)}`);
    }
    return dir;
  })();
  return sampleDir;
}

// ---------------------------------------------------------------------------------------------
// (b) Synthetic indexes
// ---------------------------------------------------------------------------------------------

const DEFAULT_ZONE: Record<CalendarSource, string> = {
  "labour-stats-release-schedule": "America/New_York",
  "eu-stats-release-calendar": "Europe/Luxembourg",
  "central-bank-meetings-calendar": "Europe/Berlin",
  "central-bank-statistics-calendar": "Europe/Berlin",
};

export interface EventSpec {
  source: CalendarSource;
  /** The source's own event id (stable across runs). */
  id: string;
  /** Must match a real release titlePattern of the source (or of its alias, see SyntheticSpec.aliases). */
  title: string;
  /** `YYYY-MM-DD` in the source zone. */
  date: string;
  /** UTC instant, or null/absent for a date-only event. */
  at?: string | null;
  zone?: string;
  /** `YYYY-MM` or `YYYY-Q<n>`. */
  period?: string | null;
  status?: "SCHEDULED" | "PUBLISHED";
}

function periodOf(code: string): ReferencePeriod {
  const month = /^(\d{4})-(\d{2})$/.exec(code);
  if (month) {
    const [year, m] = [Number(month[1]), Number(month[2])];
    const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
    return { kind: "MONTH", code, startDate: `${code}-01`, endDate: `${code}-${String(last).padStart(2, "0")}` };
  }
  const quarter = /^(\d{4})-Q([1-4])$/.exec(code);
  if (quarter) {
    const [year, q] = [Number(quarter[1]), Number(quarter[2])];
    const startMonth = (q - 1) * 3 + 1;
    const endMonth = startMonth + 2;
    const last = new Date(Date.UTC(year, endMonth, 0)).getUTCDate();
    const pad = (n: number) => String(n).padStart(2, "0");
    return { kind: "QUARTER", code, startDate: `${year}-${pad(startMonth)}-01`, endDate: `${year}-${pad(endMonth)}-${pad(last)}` };
  }
  throw new Error(`unsupported period code ${code}`);
}

/** A SourceEvent as an adapter would produce it. */
export function sourceEvent(spec: EventSpec): SourceEvent {
  const at = spec.at ?? null;
  return {
    source: spec.source,
    sourceEventId: spec.id,
    title: spec.title,
    scheduledDate: spec.date,
    scheduledAt: at,
    timePrecision: at === null ? "DATE_ONLY" : "EXACT_TIME",
    sourceTimezone: spec.zone ?? DEFAULT_ZONE[spec.source],
    referencePeriod: spec.period ? periodOf(spec.period) : null,
    referencePeriodText: spec.period ?? null,
    sourceStatus: spec.status ?? "SCHEDULED",
    sourceUrl: null,
  };
}

/** The id the index gives the event first described by this source record. */
export function eventIdOf(spec: Pick<EventSpec, "source" | "id">): string {
  return stableEventId(spec.source, spec.id);
}

type ObservationApi = SourceObservation["api"];

/** A SourceObservation as an adapter would produce it. */
export function observation(api: ObservationApi, seriesId: string, referencePeriod: string, value: string | null, publicationStatus: string | null = null): SourceObservation {
  return { api, seriesId, referencePeriod, value, publicationStatus, sourceUpdatedAt: null };
}

export interface SyntheticRun {
  /** ISO instant of the run (run start, check time, `ingestedAt` of the vintages it appends). */
  at: string;
  /** Full snapshots per calendar source, applied in this order. */
  calendars?: Partial<Record<CalendarSource, EventSpec[]>>;
  observations?: SourceObservation[];
  /** Sources recorded `incomplete` in this run (the run is then `partial`). */
  incomplete?: string[];
}

export interface SyntheticSpec {
  runs: SyntheticRun[];
  /** Overrides of the publication facts (default: as runIngestion computes them from the runs). */
  facts?: Partial<PublicationFacts>;
  /**
   * Test-only matching aid: a source whose titles are also tried against another source's real patterns.
   * No release of the real registry has title patterns for two sources, so an event with two sources
   * can only arise this way.
   */
  aliases?: Partial<Record<CalendarSource, CalendarSource>>;
}

/**
 * Opens a real store, applies each run's calendar snapshots and observations through the real
 * apply functions, records run outcomes and source checks, and publishes the index with the real
 * registry (data/registry). Returns the data directory.
 */
export function syntheticDataDir(spec: SyntheticSpec): string {
  const dir = tempDir("economics-synthetic-");
  const lastRun = spec.runs.at(-1);
  const registry = readRegistrySources(lastRun ? new Date(lastRun.at) : new Date(0));
  const realMatcher = createReleaseMatcher(registry);
  const match = (source: CalendarSource, title: string) => {
    const alias = spec.aliases?.[source];
    return realMatcher(source, title) ?? (alias ? realMatcher(alias, title) : null);
  };
  const seriesIndex = createSeriesIndex(registry);
  const store = openStore(join(dir, DATA_FILES.store));
  try {
    let lastSuccess: string | null = null;
    for (const [position, run] of spec.runs.entries()) {
      const runId = `run_synthetic_${position}`;
      const context = { runId, at: run.at };
      store.startRun(runId, run.at, "archive");
      for (const [source, events] of Object.entries(run.calendars ?? {}) as [CalendarSource, EventSpec[]][]) {
        const counts = applyCalendarSnapshot(store, match, source, events.map(sourceEvent), context);
        if (counts.unmatched > 0) throw new Error(`synthetic ${source} titles matched no release (${counts.unmatched})`);
        store.recordCheck(runId, source, run.at, "successful", null);
      }
      if (run.observations && run.observations.length > 0) {
        const counts = applyObservations(store, seriesIndex, run.observations, context);
        if (counts.unregistered > 0) throw new Error(`synthetic observations of unregistered series (${counts.unregistered})`);
        for (const api of new Set(run.observations.map((item) => item.api))) store.recordCheck(runId, api, run.at, "successful", null);
      }
      for (const source of run.incomplete ?? []) store.recordCheck(runId, source, run.at, "incomplete", "synthetic failure");
      const outcome = (run.incomplete ?? []).length > 0 ? "partial" : "succeeded";
      store.finishRun(runId, run.at, outcome, {});
      if (outcome === "succeeded") lastSuccess = run.at;
    }
    const at = lastRun?.at ?? null;
    publishIndex(store, registry, dir, { publishedAt: at, lastIngestedAt: at, lastSuccessfulIngestionAt: lastSuccess, ...spec.facts });
  } finally {
    store.close();
  }
  return dir;
}

/** An index exists but was published by no completed ingestion (`lastIngestedAt` null). */
export function noIngestionDataDir(): string {
  return syntheticDataDir({
    runs: [{ at: "2026-03-05T06:00:00.000Z", calendars: { "labour-stats-release-schedule": [EDGE_EVENTS.ppi0310] } }],
    facts: { lastIngestedAt: null, lastSuccessfulIngestionAt: null },
  });
}

/** A completed ingestion that found nothing: an index with no events and no observations. */
export function emptyIndexDataDir(): string {
  return syntheticDataDir({ runs: [{ at: "2026-03-05T06:00:00.000Z" }] });
}

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
  employment0309: { source: LABOUR, id: "syn-empsit-2026-03-09", title: "Employment Situation", date: "2026-03-09", at: "2026-03-09T12:30:00.000Z" },
  /** MEDIUM, US, no evidence ever: the timed past-due subject. */
  ppi0310: { source: LABOUR, id: "syn-ppi-2026-03-10", title: "Producer Price Index", date: "2026-03-10", at: "2026-03-10T12:30:00.000Z" },
  /** HIGH, US; confirmed by verified values of 2026-02 ingested in the second run. */
  cpi0311: { source: LABOUR, id: "syn-cpi-2026-03-11", title: "Consumer Price Index", date: "2026-03-11", at: "2026-03-11T12:30:00.000Z", period: "2026-02" },
  /** LOW, US, same instant as the CPI. */
  realEarnings0311: { source: LABOUR, id: "syn-realer-2026-03-11", title: "Real Earnings", date: "2026-03-11", at: "2026-03-11T12:30:00.000Z" },
  /** MEDIUM, US, later the same day. */
  jolts0311: { source: LABOUR, id: "syn-jolts-2026-03-11", title: "Job Openings and Labor Turnover Survey", date: "2026-03-11", at: "2026-03-11T14:00:00.000Z" },
  /** HIGH, EA, date-only with no evidence: the date-only past-due subject. */
  hicpFlash0312: { source: EUROSTAT, id: "syn-hicp-flash-2026-03-12", title: "Flash estimate inflation euro area", date: "2026-03-12", period: "2026-02" },
  /** HIGH, EA, date-only; confirmed by a verified value (ea-unemployment-rate 2026-01) from the second run. */
  unemployment0312: { source: EUROSTAT, id: "syn-une-2026-03-12", title: "Unemployment", date: "2026-03-12", period: "2026-01" },
  /** MEDIUM, EA; listed in the first run only, so the second run marks it CANCELLED. */
  industrialProduction0312: { source: EUROSTAT, id: "syn-indprod-2026-03-12", title: "Industrial production", date: "2026-03-12", period: "2026-01" },
  /** MEDIUM, US; 2026-03-17 in the first run, moved to 2026-03-18 in the second: RESCHEDULED. */
  eci0317: { source: LABOUR, id: "syn-eci-2025-q4", title: "Employment Cost Index", date: "2026-03-17", at: "2026-03-17T12:30:00.000Z", period: "2025-Q4" },
  /** MEDIUM, EA, date-only; the second run's calendar states it PUBLISHED. */
  hicp0318: { source: EUROSTAT, id: "syn-hicp-2026-03-18", title: "Inflation (HICP)", date: "2026-03-18", period: "2026-02" },
  /** HIGH, region EA (no country); date-only from the meetings calendar ... */
  ecbDecision0319: { source: MEETINGS, id: "syn-govc-2026-03-19", title: "ECB GovC: monetary policy meeting in Frankfurt (Day 2), followed by press conference", date: "2026-03-19" },
  /** ... and the statistics calendar attaches to it in the second run with a time (a second source on the canonical event). */
  ecbDecisionTimed0319: { source: STATS, id: "syn-statscal-mopo-2026-03-19", title: "Governing Council monetary policy meeting: press release", date: "2026-03-19", at: "2026-03-19T13:15:00.000Z" },
} satisfies Record<string, EventSpec>;

/** Moved ECI in the second run. */
export const ECI_MOVED: EventSpec = { ...EDGE_EVENTS.eci0317, date: "2026-03-18", at: "2026-03-18T12:30:00.000Z" };

/** 520 LOW Real Earnings events, 52 a day on 2027-01-04 .. 2027-01-13, for default page sizes and clamps. */
export const BULK = { count: 520, firstDate: "2027-01-04", lastDate: "2027-01-13", perDay: 52 } as const;
export const BULK_EVENTS: EventSpec[] = Array.from({ length: BULK.count }, (_, index) => {
  const day = String(4 + (index % 10)).padStart(2, "0");
  return { source: LABOUR, id: `syn-bulk-${String(index).padStart(3, "0")}`, title: "Real Earnings", date: `2027-01-${day}`, at: `2027-01-${day}T13:30:00.000Z` };
});

/** US unemployment rate (LNS14000000): 520 monthly periods 1982-01 .. 2025-04, for page sizes and clamps. */
export const LONG_SERIES = { slug: "us-unemployment-rate", upstream: "LNS14000000", count: 520, first: "1982-01", last: "2025-04" } as const;
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
        ...["2024-Q1", "2024-Q2", "2024-Q3", "2024-Q4", "2025-Q1", "2025-Q2", "2025-Q3", "2025-Q4"]
          .map((period, index) => observation("eurostat-sdmx", EA_GDP, period, (0.1 * (index + 1)).toFixed(1))),
        ...Array.from({ length: LONG_SERIES.count }, (_, index) => observation("bls-api", LONG_SERIES.upstream, longSeriesPeriod(index), longSeriesValue(index))),
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

let edgeDir: string | null = null;

/** The edge-case corpus (built once per test process). */
export function edgeCaseDataDir(): string {
  edgeDir ??= syntheticDataDir(EDGE_SPEC);
  return edgeDir;
}

// ---------------------------------------------------------------------------------------------
// Request helpers shared by the economics tests
// ---------------------------------------------------------------------------------------------

type ServiceLike = {
  createKey(scopes: Scope[]): string;
  request(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: any; text: string }>;
};

/** GET (or another method) with a bearer key carrying `scopes` (default economics:read). */
export function credentialedClient(service: ServiceLike, scopes: Scope[] = ["economics:read"]) {
  const key = service.createKey(scopes);
  return (path: string, init: RequestInit = {}) =>
    service.request(path, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string> | undefined) } });
}

/** The order of the events routes: scheduled date, timed before date-only, time, id. */
export function inEventOrder<T extends { scheduledDate: string; scheduledAt: string | null; id: string }>(entries: T[]): T[] {
  const key = (entry: T) => [entry.scheduledDate, entry.scheduledAt === null ? "1" : "0", entry.scheduledAt ?? "", entry.id];
  return [...entries].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    for (let index = 0; index < ka.length; index++) {
      if (ka[index]! < kb[index]!) return -1;
      if (ka[index]! > kb[index]!) return 1;
    }
    return 0;
  });
}

// ---------------------------------------------------------------------------------------------
// A corpus whose pages cross the 1 MB response ceiling
// ---------------------------------------------------------------------------------------------

/** 400 ECB statistics-calendar events with 2,500-character titles, 50 a day on 2026-05-04 .. 2026-05-11 (about 6 kB each). */
export const LONG_TITLES = { count: 400, from: "2026-05-04", to: "2026-05-11", titleLength: 2500 } as const;

let longTitleDir: string | null = null;

export function longTitleDataDir(): string {
  longTitleDir ??= syntheticDataDir({
    runs: [{
      at: "2026-05-01T06:00:00.000Z",
      calendars: {
        [STATS]: Array.from({ length: LONG_TITLES.count }, (_, index) => {
          const day = String(4 + (index % 8)).padStart(2, "0");
          const title = `Monetary developments in the euro area: ${String(index).padStart(3, "0")} ${"x".repeat(LONG_TITLES.titleLength)}`;
          return { source: STATS, id: `syn-long-${index}`, title, date: `2026-05-${day}`, at: `2026-05-${day}T08:00:00.000Z` };
        }),
      },
    }],
  });
  return longTitleDir;
}
