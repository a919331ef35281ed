/**
 * `runIngestion` and `publishIndex` from the compiled build in dist/ (which the suite's globalSetup, build-once.ts,
 * makes from the sources under test before any file runs), for tests that run ingestion or build indexes in-process,
 * often dozens of times. Publishing an index starts a worker thread; run from the TypeScript sources, that thread
 * first loads tsx (its own loader thread) and compiles the thread's modules again, about 0.3 s of CPU per index;
 * compiled, it starts as plain JavaScript, as it does for the `service` executable. Same code, same types (those of
 * the sources).
 */
const compiled = (path: string) => new URL(`../../dist/${path}`, import.meta.url).href;

export const { runIngestion } = (await import(
  /* @vite-ignore */ compiled("cli/ingest/run-ingestion.js")
)) as typeof import("../../cli/ingest/run-ingestion.ts");
export const { publishIndex } = (await import(
  /* @vite-ignore */ compiled("cli/ingest/index/publish-index.js")
)) as typeof import("../../cli/ingest/index/publish-index.ts");
export type { IngestMode, IngestSummary } from "../../cli/ingest/run-ingestion.ts";
