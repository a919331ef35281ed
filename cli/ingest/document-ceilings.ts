import type { SourceDefinition } from "./sources.ts";

/** SERVICE_INGEST_MAX_BYTES unset: the ceiling of any one document, fetched or replayed. */
export const DEFAULT_INGEST_MAX_BYTES = 20_000_000;

/**
 * Ceilings of their own for formats read whole into a tree of objects, far below the fetch ceiling: a feed parsed
 * into objects took about 25-40 times its size (a 19.9 MB feed peaked at 585-836 MB), so a feed must stay small for a
 * run to stay within its memory. The publishers' own documents are far below: the ECB press feed is 5.6 KB, the
 * largest recorded calendar (the ECB statistical calendar page) 200 KB. Value documents keep the fetch ceiling alone:
 * their peak stays within 300 MB at 20 MB (docs/performance.md).
 */
const FORMAT_CEILINGS: Record<SourceDefinition["kind"], { bytes: number; format: string } | null> = {
  news: { bytes: 1_000_000, format: "announcement feeds" },
  calendar: { bytes: 2_000_000, format: "release calendars" },
  observations: null,
};

interface DocumentCeiling {
  bytes: number;
  /** What the ceiling is for, in a refusal: the format, or the setting when the fetch ceiling is the lower one. */
  format: string;
  /** Whether the format's own ceiling is the one that applies (the fetch ceiling's refusals already say which it is). */
  ofFormat: boolean;
}

/** The ceiling a document of this source is held to, fetched or replayed: its format's, or the fetch ceiling if lower. */
export function documentCeiling(source: SourceDefinition, fetchMaxBytes: number): DocumentCeiling {
  const own = FORMAT_CEILINGS[source.kind];
  return own && own.bytes < fetchMaxBytes
    ? { bytes: own.bytes, format: own.format, ofFormat: true }
    : { bytes: fetchMaxBytes, format: "documents (SERVICE_INGEST_MAX_BYTES)", ofFormat: false };
}
