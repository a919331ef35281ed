import type { Logger } from "../../server/observability/logger.ts";
import type { IngestSummary } from "./run-ingestion.ts";

/** How `service ingest` reports on stderr: lines for people, or JSON lines (pino) for log collectors. */
export const INGEST_LOG_FORMATS = ["text", "json"] as const;
export type IngestLogFormat = (typeof INGEST_LOG_FORMATS)[number];

/**
 * The structured record of a run: a line per source (its outcome, documents, counts and what it skipped) and one for
 * the run (outcome, whether an index or only its source checks were published, duration, totals). Progress lines go
 * out as they happen.
 */
export function logRunSummary(logger: Logger, summary: IngestSummary): void {
  for (const source of summary.sources) {
    const fields = {
      runId: summary.runId,
      source: source.source,
      ok: source.ok,
      documents: source.documents,
      counts: source.counts,
      skipped: source.skipped ?? [],
      detail: source.detail,
      failures: source.failures,
    };
    if (source.ok) logger.info(fields, "source ingested");
    else logger.warn(fields, "source incomplete");
  }
  const fields = {
    runId: summary.runId,
    outcome: summary.outcome,
    published: summary.published,
    checksPublished: summary.checksPublished,
    durationMs: Math.round(summary.durationMs),
    totals: summary.totals,
  };
  if (summary.outcome === "succeeded") logger.info(fields, "ingestion run finished");
  else logger.warn(fields, "ingestion run finished");
}
