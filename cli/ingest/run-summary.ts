import type { RunOutcome } from "../../schemas/vocabularies.ts";
import type { ReleaseWatch } from "./due/found-releases.ts";
import type { UpstreamSource } from "./records.ts";
import type { SkippedByReason } from "./skipped-summary.ts";
import type { SourceDefinition } from "./sources.ts";

/** One source's line and check in a run's summary. */
export interface SourceResult {
  source: UpstreamSource;
  ok: boolean;
  documents: number;
  detail: string;
  counts: Record<string, number>;
  /** Calendar records that did not become events, by reason (also kept in the ledger's `skipped_calendar_records`). */
  skipped?: SkippedByReason[];
  /** Every document that failed, each with its own message, in the order they failed (also in `detail`). */
  failures: string[];
}

/** What an ingestion run came to: its outcome, each source's result and the totals over them. */
export interface IngestSummary {
  runId: string;
  outcome: Exclude<RunOutcome, "running">;
  /** Whether the index was rebuilt and published. */
  published: boolean;
  /** Whether, with no index rebuilt, the live one was published again with this run's checks (a check had turned). */
  checksPublished: boolean;
  durationMs: number;
  sources: SourceResult[];
  totals: {
    documents: number;
    eventsNew: number;
    eventsChanged: number;
    eventsCancelled: number;
    vintagesAppended: number;
  };
  /** The releases due when a live run started: which it found, and when (found-releases.ts). */
  releases?: ReleaseWatch;
}

/** What one source's documents came to in this run. */
export interface SourceTally {
  documents: number;
  counts: Record<string, number>;
  skipped: SkippedByReason[];
  /** Skipped records already named, by reason and record id. */
  skippedSeen: Set<string>;
  failures: string[];
}

/** A source's tally before any of its documents. */
export function emptyTally(): SourceTally {
  return { documents: 0, counts: {}, skipped: [], skippedSeen: new Set(), failures: [] };
}

/**
 * A source's line and check: ok when some document was read and none failed. Every failed document is named with its
 * own message (numbered when there are several), so the progress line, the log and the run record say what each was.
 */
export function sourceResult(source: SourceDefinition, tally: SourceTally): SourceResult {
  const ok = tally.documents > 0 && tally.failures.length === 0;
  const { failures } = tally;
  const detail =
    failures.length === 1
      ? failures[0]!
      : failures.length > 1
        ? `${failures.length} documents failed: ${failures.map((failure, n) => `(${n + 1}) ${failure}`).join("; ")}`
        : tally.documents === 0
          ? "no documents to read"
          : describe(tally.documents, tally.counts);
  return {
    source: source.slug,
    ok,
    documents: tally.documents,
    detail,
    counts: tally.counts,
    failures: [...failures],
    ...(source.kind === "calendar" ? { skipped: tally.skipped } : {}),
  };
}

function describe(documents: number, counts: Record<string, number>): string {
  const parts = Object.entries(counts)
    .filter(([, value]) => value > 0)
    .map(([name, value]) => `${value} ${name}`);
  return `${documents} document${documents === 1 ? "" : "s"}${parts.length ? `, ${parts.join(", ")}` : ""}`;
}

export function totalsOf(results: SourceResult[]): IngestSummary["totals"] {
  const sum = (name: string) => results.reduce((total, result) => total + (result.counts[name] ?? 0), 0);
  return {
    documents: results.reduce((total, result) => total + result.documents, 0),
    eventsNew: sum("created"),
    eventsChanged: sum("changed") + sum("attached"),
    eventsCancelled: sum("cancelled"),
    vintagesAppended: sum("appended"),
  };
}

/** Whether the sources brought anything the index shows: a value appended, evidence of a release, a period linked. */
export function broughtChanges(results: SourceResult[]): boolean {
  return results.some((result) => ["appended", "evidence", "linked"].some((name) => (result.counts[name] ?? 0) > 0));
}
