import { Histogram, type Registry } from "prom-client";
import { RELEASE_LATENCY_BUCKETS_SECONDS } from "../../schemas/release-latency.ts";
import type { IndexStorage } from "../storage/index-storage.ts";
import { readReleaseLatencies } from "../storage/ledger-reader.ts";

/**
 * `service_release_latency_seconds`, rebuilt from the ledger when scraped (a release is found once, so counts only
 * grow); no sample with no store bound.
 */
export function registerReleaseLatency(registry: Registry, storage: IndexStorage, dataDir: string): void {
  const latency: Histogram<"source"> = new Histogram({
    name: "service_release_latency_seconds",
    help: "Releases found by ingestion (_count) by the source of their figures, and the seconds from each release's scheduled instant to the fetch that brought its figures (date-only releases are not counted).",
    labelNames: ["source"],
    buckets: RELEASE_LATENCY_BUCKETS_SECONDS,
    registers: [registry],
    collect: () => {
      latency.reset();
      if (!storage.durableStorage) return;
      let found: ReturnType<typeof readReleaseLatencies>;
      try {
        found = readReleaseLatencies(dataDir);
      } catch {
        // A store being replaced or damaged: this scrape says nothing about releases rather than fail as a whole.
        return;
      }
      // Outside the try: a fault in observing is a programming error, not a replaced store.
      for (const { source, seconds } of found) latency.observe({ source }, seconds);
    },
  });
}
