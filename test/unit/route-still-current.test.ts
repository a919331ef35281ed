import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteHandler, RouteResult } from "../../server/http/route-handler.ts";
import { createRouteHandlers } from "../../server/route-handlers.ts";
import { createIndexStorage, type IndexStorage } from "../../server/storage/index-storage.ts";
import { SAMPLE_INGESTED_AT, sampleDataDir } from "../support/economics-index.ts";
import { type RunningService, startService } from "../support/service.ts";

// An index replaced while registry.json stays (a run that publishes only its checks, a follower installing a
// generation): answers of routes that read the index are no longer current, those reading only the registry still are.
describe("the published data a route reads, as its answers' stillCurrent", () => {
  let service: RunningService;
  let handlers: Record<string, RouteHandler>;
  let serving: IndexStorage;
  let replacement: IndexStorage;
  let current: IndexStorage;
  const now = Date.parse(SAMPLE_INGESTED_AT) + 3_600_000;
  const answer = async (route: string): Promise<RouteResult> =>
    handlers[route]!({ query: new URLSearchParams(), params: {}, principal: null, now });

  beforeAll(async () => {
    service = await startService({ seedDataDir: await sampleDataDir() });
    // Two openings of the same file: the same data, two index objects, as a reload gives.
    serving = createIndexStorage(service.config.dataDir, true);
    replacement = createIndexStorage(service.config.dataDir, true);
    current = serving;
    const storage: IndexStorage = { durableStorage: true, current: () => current.current(), ready: () => true };
    handlers = createRouteHandlers({ config: service.config, clock: { now: () => now }, storage, weather: null });
  });
  afterAll(() => service.close());

  it("says false once the index is replaced, for routes reading it (one with its own check too); true for the registry's", async () => {
    const releases = await answer("public.economics.releases");
    const status = await answer("public.status");
    const indicators = await answer("v1.economics.indicators");
    expect(releases.validUntil).toBeDefined();
    for (const result of [releases, status, indicators]) expect(result.stillCurrent?.()).toBe(true);
    current = replacement;
    expect(replacement.current()).not.toBe(serving.current());
    expect(releases.stillCurrent?.()).toBe(false);
    expect(status.stillCurrent?.()).toBe(false);
    expect(indicators.stillCurrent?.()).toBe(true);
    expect((await answer("public.economics.releases")).stillCurrent?.()).toBe(true);
  });
});
