// What a caller asks of one ingestion run (run-ingestion.ts).
import type { BuiltRegistry, Registry } from "../../schemas/registry.ts";
import type { DueRelease } from "./due/due-releases.ts";
import type { PoliteOptions } from "./fetch-document.ts";
import type { UpstreamHosts } from "./sources.ts";

export type IngestMode =
  | { kind: "fetch"; hosts: UpstreamHosts; blsApiKey: string | null; http: PoliteOptions }
  /** `maxBytes`: the fetch ceiling, applied to replayed documents alike (DEFAULT_INGEST_MAX_BYTES when not given). */
  | { kind: "archive"; dir: string; maxBytes?: number };

export interface IngestOptions {
  dataDir: string;
  /** Published with the run's index, and only with it (publish-index.ts). */
  registry: BuiltRegistry;
  mode: IngestMode;
  /** Limit the run to these source slugs; all when null. */
  only: string[] | null;
  now: () => number;
  progress: (line: string) => void;
  /** The run's id when whoever started the process already named it (the operator route's launcher); else a new one. */
  runId?: string;
  /** The registry whose series the requests ask for (a due run's: only the due releases' series); else `registry`. */
  requestRegistry?: Registry;
  /** Releases due when the run started: the summary and the ledger record which of them it found (found-releases.ts). */
  watch?: readonly DueRelease[];
  /** Publish only if the run brought a value, evidence or period link (a due run, every minute while a release is due). */
  publishOnlyChanges?: boolean;
}
