/**
 * `runIngestion` and `publishIndex` from the compiled build in dist/ (which the suite's globalSetup, build-once.ts,
 * makes from the sources under test before any file runs), for tests that run ingestion or build indexes in-process,
 * often dozens of times. Publishing an index starts a worker thread; run from the TypeScript sources, that thread
 * first loads tsx (its own loader thread) and compiles the thread's modules again, about 0.3 s of CPU per index;
 * compiled, it starts as plain JavaScript, as it does for the `service` executable. Same code, same types (those of
 * the sources).
 */
import { readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const compiled = (path: string) => new URL(`../../dist/${path}`, import.meta.url).href;

/** The newest modification time of the TypeScript sources under `dir`. */
function newestSource(dir: URL): number {
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".ts"));
  return Math.max(0, ...files.map((name) => statSync(new URL(name, dir)).mtimeMs));
}

// A build older than the sources (a run outside the suite's globalSetup) would test code that is no longer there.
const builtAt = statSync(fileURLToPath(compiled("cli/ingest/run-ingestion.js"))).mtimeMs;
const sourcesAt = Math.max(
  ...["cli/", "server/", "schemas/"].map((dir) => newestSource(new URL(`../../${dir}`, import.meta.url))),
);
if (sourcesAt > builtAt)
  throw new Error("dist/ is older than the sources: run `npm run build` (npm test does it first)");

export const { runIngestion } = (await import(
  /* @vite-ignore */ compiled("cli/ingest/run-ingestion.js")
)) as typeof import("../../cli/ingest/run-ingestion.ts");
export const { publishIndex } = (await import(
  /* @vite-ignore */ compiled("cli/ingest/index/publish-index.js")
)) as typeof import("../../cli/ingest/index/publish-index.ts");
export type { IngestMode, IngestSummary } from "../../cli/ingest/run-ingestion.ts";
