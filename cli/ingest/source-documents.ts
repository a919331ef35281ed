import { DateTime } from "luxon";
import { UpstreamRequestError } from "../../server/upstream/fetch-limited.ts";
import { DOCUMENT_FAILURES } from "./adapters/document-failures.ts";
import { applyDocument, type Document } from "./apply-document.ts";
import { replayPlan } from "./archive.ts";
import { DEFAULT_INGEST_MAX_BYTES, documentCeiling } from "./document-ceilings.ts";
import { keepSourceWait } from "./due/source-waits.ts";
import {
  DocumentRefusedError,
  type FetchedDocument,
  fetchDocument,
  PublisherAskedToWaitError,
} from "./fetch-document.ts";
import type { IngestOptions } from "./ingest-options.ts";
import type { Store } from "./ledger/store.ts";
import type { RunLookups } from "./run-lookups.ts";
import { emptyTally, type SourceResult, type SourceTally, sourceResult } from "./run-summary.ts";
import type { RequestContext, SourceDefinition } from "./sources.ts";

/**
 * A live run: each source's documents fetched, then applied in request order; a failure ends the source's turn. Only
 * an observation API's document the publisher refuses (a wrong series key's 404) fails alone: each such document
 * stands for one series or dataset, so the others are still fetched and applied, and the source is reported incomplete.
 */
export async function ingestSource(
  store: Store,
  source: SourceDefinition,
  options: IngestOptions & { mode: { kind: "fetch" } },
  runId: string,
  lookups: RunLookups,
): Promise<SourceResult> {
  const tally = emptyTally();
  try {
    const received = await fetchedDocuments(
      source,
      options,
      source.kind === "observations" ? (message) => tally.failures.push(message) : null,
    );
    for (const document of received) applyDocument(store, source, document, options, runId, lookups, tally);
  } catch (error) {
    tally.failures.push((error as Error).message);
    if (error instanceof PublisherAskedToWaitError) {
      const unrecorded = keepSourceWait(store.db, source.slug, error.waitMs, options.now(), runId);
      if (unrecorded) tally.failures.push(unrecorded);
    }
  }
  return sourceResult(source, tally);
}

/**
 * A replay: every document of the folder in the order its archive recorded the fetches (`replayPlan`), across sources,
 * as the runs that fetched them applied them. A document that cannot be read fails its source and the replay goes on,
 * since the runs that followed it applied what came after.
 */
export function replaySources(
  store: Store,
  sources: SourceDefinition[],
  options: IngestOptions & { mode: { kind: "archive" } },
  runId: string,
  lookups: RunLookups,
): SourceResult[] {
  const tallies = new Map(sources.map((source): [string, SourceTally] => [source.slug, emptyTally()]));
  const bySlug = new Map<string, SourceDefinition>(sources.map((source) => [source.slug, source]));
  const maxBytes = options.mode.maxBytes ?? DEFAULT_INGEST_MAX_BYTES;
  const ceilingOf = (slug: string) => documentCeiling(bySlug.get(slug)!, maxBytes);
  for (const planned of replayPlan(options.mode.dir, [...bySlug.keys()], (slug) => ceilingOf(slug).bytes)) {
    const source = bySlug.get(planned.source)!;
    const tally = tallies.get(source.slug)!;
    if (planned.body === null) {
      const { bytes, format } = ceilingOf(source.slug);
      tally.failures.push(`${planned.name}: ${DOCUMENT_FAILURES.overCeiling(planned.bytes, bytes, format)}`);
      continue;
    }
    const document: Document = {
      name: planned.name,
      url: planned.recorded?.url ?? `file:${planned.name}`,
      body: planned.body,
      status: null,
      etag: null,
      lastModified: null,
      fetchedAt: planned.recorded?.fetchedAt ?? planned.stampedAt,
      retrievedAt: planned.recorded?.retrievedAt ?? planned.statedAt ?? null,
      fetchTimeKnown: planned.recorded
        ? !planned.recorded.fetchTimeUnknown
        : planned.statedAt !== undefined
          ? planned.statedAt !== null
          : planned.stampedAt !== null,
      runId: planned.recorded?.runId ?? null,
    };
    try {
      applyDocument(store, source, document, options, runId, lookups, tally);
    } catch (error) {
      tally.failures.push(`${planned.name}: ${(error as Error).message}`);
    }
  }
  return sources.map((source) => sourceResult(source, tallies.get(source.slug)!));
}

/** The source's documents; with `refusedAlone`, a document the publisher refuses is reported there and the rest fetched. */
async function fetchedDocuments(
  source: SourceDefinition,
  options: IngestOptions & { mode: { kind: "fetch" } },
  refusedAlone: ((message: string) => void) | null,
): Promise<Document[]> {
  const { mode } = options;
  const context: RequestContext = {
    hosts: mode.hosts,
    registry: options.requestRegistry ?? options.registry,
    now: DateTime.fromMillis(options.now(), { zone: "utc" }),
    blsApiKey: mode.blsApiKey,
  };
  const documents: Document[] = [];
  for (const request of source.requests(context)) {
    let fetched: FetchedDocument;
    const ceiling = documentCeiling(source, mode.http.maxBytes);
    try {
      fetched = await fetchDocument(request, { ...mode.http, maxBytes: ceiling.bytes });
    } catch (error) {
      if (ceiling.ofFormat && error instanceof UpstreamRequestError && error.failure === "too-large")
        throw new UpstreamRequestError("too-large", `${error.message} for ${ceiling.format}`);
      if (!(refusedAlone && error instanceof DocumentRefusedError)) throw error;
      refusedAlone(error.message);
      continue;
    }
    documents.push({
      name: "",
      url: request.url,
      body: fetched.body,
      status: fetched.status,
      etag: fetched.etag,
      lastModified: fetched.lastModified,
      fetchedAt: null,
      retrievedAt: null,
      fetchTimeKnown: true,
      runId: null,
    });
  }
  return documents;
}
