// What every document of one run is applied with (apply-document.ts).
import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import type { Registry } from "../../schemas/registry.ts";
import { createSeriesIndex } from "./apply-observations.ts";
import { fetchOrderRecorder } from "./fetch-order.ts";
import { appliedFetches } from "./ledger/applied-fetches.ts";
import { createPeriodLinker } from "./link-periods-by-value.ts";
import { createNewsReleaseMatcher, createReleaseResolver } from "./release-matching.ts";

/**
 * What a run looks things up in, built once per run: the registry's matchers and indexes, a hash of its content (not of
 * its build time: a document applied under another registry may match differently, so it counts as not yet applied),
 * the archive's fetch-order journal the run appends to, and the ledger's record of what was applied (`store`: the run's
 * store database).
 */
export function runLookups(registry: Registry, store: Database.Database) {
  const content = JSON.stringify({ families: registry.families, series: registry.series, releases: registry.releases });
  return {
    resolveRelease: createReleaseResolver(registry),
    seriesIndex: createSeriesIndex(registry),
    matchNewsReleases: createNewsReleaseMatcher(registry),
    registrySha256: createHash("sha256").update(content).digest("hex"),
    fetchOrder: fetchOrderRecorder(),
    linkPeriods: createPeriodLinker(registry),
    appliedFetches: appliedFetches(store),
  };
}

export type RunLookups = ReturnType<typeof runLookups>;
