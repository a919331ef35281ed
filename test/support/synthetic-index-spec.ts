import { stableEventId } from "../../cli/ingest/apply-calendar.ts";
import type { SourceEvent, SourceObservation, UpstreamSource } from "../../cli/ingest/records.ts";
import type { PublicationFacts } from "../../schemas/index-ddl.ts";
import type { ReferencePeriod } from "../../schemas/reference-periods.ts";
import type { CalendarSource } from "../../schemas/vocabularies.ts";

/**
 * How a synthetic economics index is described: its ingestion runs, the calendar events and observations
 * each run applies, and the makers of those source records as an adapter would produce them.
 * `syntheticDataDir` (economics-index.ts) builds a real published index from such a description.
 */

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
    return {
      kind: "QUARTER",
      code,
      startDate: `${year}-${pad(startMonth)}-01`,
      endDate: `${year}-${pad(endMonth)}-${pad(last)}`,
    };
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
export function observation(
  api: ObservationApi,
  seriesId: string,
  referencePeriod: string,
  value: string | null,
  publicationStatus: string | null = null,
): SourceObservation {
  return {
    api,
    seriesId,
    referencePeriod,
    value,
    publicationStatus,
    sourceUpdatedAt: null,
    note: null,
    adapter: `synthetic-${api}`,
    transformation: [],
  };
}

export interface SyntheticRun {
  /** ISO instant of the run (run start, check time, `ingestedAt` of the vintages it appends). */
  at: string;
  /** Full snapshots per calendar source, applied in this order. */
  calendars?: Partial<Record<CalendarSource, EventSpec[]>>;
  observations?: SourceObservation[];
  /** Sources recorded `incomplete` in this run (the run is then `partial`). */
  incomplete?: UpstreamSource[];
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
