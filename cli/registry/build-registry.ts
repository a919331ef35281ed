import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_FILES } from "../../schemas/data-files.ts";
import type { BuiltRegistry, DerivedSeriesRule, Registry } from "../../schemas/registry.ts";
import { assertBuiltRegistry } from "../../schemas/registry-schema.ts";
import { UNFINISHED_WRITE_SUFFIX, writeFileAtomically } from "../../server/files/atomic-write.ts";
import { removeAbandonedFiles, writerFile } from "../abandoned-files.ts";
import { DEFAULT_REGISTRY_DIR } from "../file-locations.ts";

/** Reads the curated sources in `sourceDir`, checks them against the schema and each other, and returns the built registry. */
function buildRegistry(sourceDir: string, builtAt: string): BuiltRegistry {
  const read = (name: string): unknown => {
    const path = join(sourceDir, `${name}.json`);
    try {
      return JSON.parse(readFileSync(path, "utf8"));
    } catch (error) {
      // Named, since a message such as "Unexpected end of JSON input" does not say which of the files it is about.
      throw new Error(`registry source ${path}: ${(error as Error).message}`);
    }
  };
  const registry = assertBuiltRegistry({
    builtAt,
    families: read("families"),
    series: read("series"),
    releases: read("releases"),
  });
  const problems = crossReferenceProblems(registry);
  if (problems.length > 0) throw new Error(`registry is inconsistent: ${problems.join("; ")}`);
  return registry;
}

/** The curated registry, validated: the shipped one unless `sourceDir` names another (`--registry-dir`). */
export function readRegistrySources(now: Date = new Date(), sourceDir: string = DEFAULT_REGISTRY_DIR): BuiltRegistry {
  return buildRegistry(sourceDir, now.toISOString());
}

/** Validates the curated registry and publishes the registry JSON into the data directory. */
export function rebuildRegistry(
  dataDir: string,
  now: Date = new Date(),
  sourceDir: string = DEFAULT_REGISTRY_DIR,
): string {
  return publishRegistry(readRegistrySources(now, sourceDir), dataDir);
}

/** Writes the registry JSON the server loads, atomically. */
export function publishRegistry(registry: BuiltRegistry, dataDir: string): string {
  const path = join(dataDir, DATA_FILES.registry);
  writeFileAtomically(path, JSON.stringify(registry));
  // `service registry` and `serve` publish without the ingestion lock, so only files of writers no longer running go.
  removeAbandonedFiles(path, UNFINISHED_WRITE_SUFFIX, "live-writers");
  return path;
}

/**
 * The registry and the index are one generation: once an index is published, a registry goes out only with the next
 * one (`stageRegistry`), so the server never answers an index with a registry it was not built with. Alone, it is
 * published only where there is no index to disagree with (no run yet, or a deployment without storage) or no
 * registry at all. Under the ingestion lock.
 */
export function publishRegistryUnlessIndexed(
  registry: BuiltRegistry,
  dataDir: string,
): { outcome: "published" | "unchanged" | "waits-for-next-index"; path: string } {
  const path = join(dataDir, DATA_FILES.registry);
  if (!existsSync(join(dataDir, DATA_FILES.index)) || !existsSync(path))
    return { outcome: "published", path: publishRegistry(registry, dataDir) };
  return { outcome: sameContent(registry, path) ? "unchanged" : "waits-for-next-index", path };
}

/** Whether the published registry holds these families, series and releases (its build time aside). */
function sameContent(registry: Registry, path: string): boolean {
  const content = (built: Registry) =>
    JSON.stringify({ families: built.families, series: built.series, releases: built.releases });
  try {
    return content(JSON.parse(readFileSync(path, "utf8")) as Registry) === content(registry);
  } catch {
    return false;
  }
}

/**
 * The registry written beside its live name, synced, for `commit` to rename over it right after the index it goes out
 * with (cli/ingest/index/publish-index.ts); `discard` removes it when that index is not published.
 */
export function stageRegistry(registry: BuiltRegistry, dataDir: string): { commit(): void; discard(): void } {
  const live = join(dataDir, DATA_FILES.registry);
  const staged = writerFile(live, UNFINISHED_WRITE_SUFFIX);
  writeFileSync(staged, JSON.stringify(registry));
  const descriptor = openSync(staged, "r");
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  return {
    commit: () => renameSync(staged, live),
    discard: () => rmSync(staged, { force: true }),
  };
}

function crossReferenceProblems(registry: Registry): string[] {
  const problems: string[] = [];
  const families = new Set(registry.families.map((family) => family.slug));
  const series = new Set(registry.series.map((entry) => entry.slug));
  const duplicates = (slugs: string[]) => slugs.filter((slug, index) => slugs.indexOf(slug) !== index);

  for (const slug of duplicates(registry.families.map((family) => family.slug)))
    problems.push(`family ${slug} is defined twice`);
  for (const slug of duplicates(registry.series.map((entry) => entry.slug)))
    problems.push(`series ${slug} is defined twice`);
  for (const slug of duplicates(registry.releases.map((release) => release.slug)))
    problems.push(`release ${slug} is defined twice`);
  for (const family of registry.families) {
    for (const related of family.relatedFamilySlugs)
      if (!families.has(related)) problems.push(`family ${family.slug} relates to unknown ${related}`);
  }
  for (const entry of registry.series) {
    if (!families.has(entry.familySlug)) problems.push(`series ${entry.slug} names unknown family ${entry.familySlug}`);
    if ((entry.country === null) === (entry.region === null))
      problems.push(`series ${entry.slug} needs exactly one of country and region`);
    if ((entry.upstream === null) === (entry.derived === null))
      problems.push(`series ${entry.slug} needs exactly one of upstream and derived`);
    if (entry.derived) problems.push(...derivationProblems(entry.slug, entry.derived, series));
  }
  for (const release of registry.releases) {
    if ((release.country === null) === (release.region === null))
      problems.push(`release ${release.slug} needs exactly one of country and region`);
    for (const slug of release.seriesSlugs)
      if (!series.has(slug)) problems.push(`release ${release.slug} names unknown series ${slug}`);
    for (const slug of release.headlineSeriesSlugs)
      if (!release.seriesSlugs.includes(slug))
        problems.push(`release ${release.slug} names headline series ${slug} that is not among its seriesSlugs`);
    for (const slug of duplicates(release.headlineSeriesSlugs))
      problems.push(`release ${release.slug} names headline series ${slug} twice`);
    if (release.seriesSlugs.length > 0 && release.headlineSeriesSlugs.length === 0)
      problems.push(`release ${release.slug} publishes series but names no headline series`);
    for (const pattern of [...Object.values(release.titlePatterns).flat(), ...(release.newsTitlePatterns ?? [])]) {
      try {
        new RegExp(pattern, "i");
      } catch {
        problems.push(`release ${release.slug} has an invalid title pattern ${pattern}`);
      }
    }
  }
  return problems;
}

function derivationProblems(slug: string, rule: DerivedSeriesRule, series: Set<string>): string[] {
  const problems: string[] = [];
  if ((rule.inputSeriesSlug === undefined) === (rule.inputUpstream === undefined))
    problems.push(`series ${slug} needs exactly one of inputSeriesSlug and inputUpstream`);
  if (rule.inputSeriesSlug !== undefined && !series.has(rule.inputSeriesSlug))
    problems.push(`series ${slug} derives from unknown ${rule.inputSeriesSlug}`);
  const percentChange = rule.kind === "PERCENT_CHANGE_YEAR_AGO" || rule.kind === "PERCENT_CHANGE_PREVIOUS_PERIOD";
  if (percentChange !== (rule.decimalPlaces !== undefined))
    problems.push(`series ${slug}: decimalPlaces belongs to the percent-change kinds, and only there`);
  return problems;
}
