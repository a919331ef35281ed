import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { DatasetProfile } from "./routes.ts";

/** What bench/synthetic-archive/generate.ts returns: an archive laid out per source and the registry that describes it. */
export interface SyntheticArchive {
  archiveDir: string;
  registryDir: string;
  counts: Record<string, unknown>;
}

type GenerateSyntheticArchive = (
  outDir: string,
  options?: Record<string, unknown>,
) => SyntheticArchive | Promise<SyntheticArchive>;

const GENERATOR = new URL("../synthetic-archive/generate.ts", import.meta.url);

/**
 * The generator of the data set at scale, when it exists. It is written separately from this benchmark, so it is
 * looked up at run time: its absence skips the section instead of failing the run.
 */
export async function loadSyntheticGenerator(): Promise<GenerateSyntheticArchive | null> {
  if (!existsSync(GENERATOR)) return null;
  const module = (await import(GENERATOR.href)) as { generateSyntheticArchive?: unknown };
  if (typeof module.generateSyntheticArchive !== "function") {
    throw new Error(`${GENERATOR.pathname} exports no generateSyntheticArchive function`);
  }
  return module.generateSyntheticArchive as GenerateSyntheticArchive;
}

/**
 * The routes' parameters for the synthetic data: its registry names the series, so the first active, non-derived one
 * is asked for; the events window keeps the sample's year unless the registry suggests nothing better.
 */
export function profileFromRegistry(registryDir: string, fallback: DatasetProfile): DatasetProfile {
  const path = join(registryDir, "series.json");
  if (!existsSync(path)) return fallback;
  const series = JSON.parse(readFileSync(path, "utf8")) as Array<{
    slug?: unknown;
    active?: unknown;
    derived?: unknown;
  }>;
  const chosen = series.find((entry) => typeof entry.slug === "string" && entry.active !== false && !entry.derived);
  return {
    ...fallback,
    observationsSeries: typeof chosen?.slug === "string" ? chosen.slug : fallback.observationsSeries,
  };
}
