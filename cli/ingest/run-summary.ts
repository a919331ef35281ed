import type { IngestSummary, SourceResult } from "./run-ingestion.ts";
import type { SkippedByReason } from "./skipped-summary.ts";
import type { SourceDefinition } from "./sources.ts";

/** What one source's documents came to in this run. */
export interface SourceTally {
  documents: number;
  counts: Record<string, number>;
  skipped: SkippedByReason[];
  /** Skipped records already named, by reason and record id. */
  skippedSeen: Set<string>;
  failures: string[];
}

/** A source's line and check: ok when some document was read and none failed. */
export function sourceResult(source: SourceDefinition, tally: SourceTally): SourceResult {
  const ok = tally.documents > 0 && tally.failures.length === 0;
  const [failure, ...moreFailures] = tally.failures;
  const detail =
    failure !== undefined
      ? `${failure}${moreFailures.length ? `; and ${moreFailures.length} more document${moreFailures.length === 1 ? "" : "s"} failed` : ""}`
      : tally.documents === 0
        ? "no documents to read"
        : describe(tally.documents, tally.counts);
  return {
    source: source.slug,
    ok,
    documents: tally.documents,
    detail,
    counts: tally.counts,
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
