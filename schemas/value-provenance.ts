import type { ValueDerivation, ValueTransformation } from "./vocabularies.ts";

/**
 * The provenance block of every served economic value (spec: "which source and adapter produced a value, what was
 * transformed, and whether the service derived the value"), and the archived document it came from. The ledger's
 * vintages and the index's observations keep it as columns; this is the one place that turns them into the block.
 */
export interface ValueProvenance {
  /** The source slug the value was ingested from (`bls-api`, `eurostat-sdmx`, `ecb-data`); null in vintages recorded before it was kept. */
  sourceId: string | null;
  adapter: string | null;
  derivation: ValueDerivation;
  transformation: ValueTransformation[];
  /** The archived document (content hash, and when it was fetched from the publisher); null where none was recorded. */
  document: { sha256: string; fetchedAt: string | null } | null;
}

/** An input of a derived value as served (`derived.inputs[]`). */
export interface DerivedInput {
  /** The publisher's identifier of the input series (`CUUR0000SA0`, `FM.B.U2.EUR.4F.KR.DFR.LEV`). */
  sourceSeriesId: string;
  /** The input period, as one of our codes (a date of change is given as its month; `sourcePeriod` keeps the date). */
  referencePeriod: string;
  /** The publisher's own period, where it is not one of our codes (the ECB's date of change). */
  sourcePeriod?: string;
  value: string | null;
  /** The publisher's status of the input value, as written. */
  publicationStatus: string | null;
  /** The input's vintage (its sequence in the ledger): which publication of the input was used. */
  vintage: number;
  document: { sha256: string; fetchedAt: string | null } | null;
}

export interface ProvenanceColumns {
  source: string | null;
  adapter: string | null;
  /** Comma-joined. */
  transformation: string | null;
  derivation: string | null;
  document_sha256: string | null;
  document_fetched_at: string | null;
}

export function provenanceOf(row: ProvenanceColumns): ValueProvenance {
  return {
    sourceId: row.source,
    adapter: row.adapter,
    derivation: row.derivation === "SERVICE_DERIVED" ? "SERVICE_DERIVED" : "PUBLISHER_VALUE",
    transformation: row.transformation ? (row.transformation.split(",") as ValueTransformation[]) : [],
    document: archivedDocument(row),
  };
}

/**
 * The archived document a row names (its content hash and when it was fetched: null when nothing records it, as for an
 * old recording), or null where no document was recorded.
 */
export function archivedDocument(row: {
  document_sha256: string | null;
  document_fetched_at: string | null;
}): { sha256: string; fetchedAt: string | null } | null {
  return row.document_sha256 ? { sha256: row.document_sha256, fetchedAt: row.document_fetched_at } : null;
}
