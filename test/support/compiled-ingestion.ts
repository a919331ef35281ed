/**
 * `runIngestion` from the compiled build in dist/ (which the suite's globalSetup, build-once.ts, makes from the
 * sources under test before any file runs), for test files that run ingestion in-process dozens of times. A run
 * publishes its index with a worker thread; run from the TypeScript sources, that thread first loads tsx (its own
 * loader thread) and compiles the thread's modules again, about 0.3 s of CPU per run; compiled, it starts as plain
 * JavaScript, as it does for the `service` executable. Same code, same types (those of the sources).
 */
type RunIngestionModule = typeof import("../../cli/ingest/run-ingestion.ts");

const compiled = new URL("../../dist/cli/ingest/run-ingestion.js", import.meta.url).href;

export const { runIngestion } = (await import(/* @vite-ignore */ compiled)) as RunIngestionModule;
export type { IngestSummary } from "../../cli/ingest/run-ingestion.ts";
