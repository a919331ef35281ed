import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { rebuildRegistry } from "../../cli/registry/build-registry.ts";
import { DATA_FILES } from "../../schemas/data-files.ts";
import { PUBLISHED_FILE_RECHECK_MS } from "../../server/files/reloading-file.ts";
import { removeEconomicsDataDirs, sampleDataDir } from "../support/economics-index.ts";
import { type RunningService, startService } from "../support/service.ts";

/** Every route the registry feeds: those that need it, and those that only name publishers with it. */
const ROUTES = [
  "/api/v1/economics/series",
  "/api/v1/economics/indicators",
  "/api/public/v1/economics/calendar",
  "/api/public/v1/economics/releases",
  "/api/public/v1/economics/observations?series=us-cpi-all-items-nsa",
  "/api/public/v1/news/events",
];
const NEEDS_REGISTRY = new Set([
  "/api/v1/economics/series",
  "/api/v1/economics/indicators",
  "/api/public/v1/economics/releases",
  "/api/public/v1/economics/observations?series=us-cpi-all-items-nsa",
]);

afterAll(removeEconomicsDataDirs);

/**
 * A registry.json replaced by valid JSON of another shape is a registry that cannot be read, as one that is not JSON:
 * the routes that need it answer CONFIGURATION_ERROR (never INTERNAL from a TypeError per request), the others serve
 * without it, readiness says not ready, and the next good registry published is served again.
 */
describe("a published registry of the wrong shape", () => {
  let service: RunningService | undefined;
  afterEach(() => service?.close());

  const publish = async (text: string) => {
    const path = join(service!.dataDir, DATA_FILES.registry);
    writeFileSync(`${path}.swap`, text);
    renameSync(`${path}.swap`, path);
    await new Promise((resolve) => setTimeout(resolve, 3 * PUBLISHED_FILE_RECHECK_MS));
  };

  it.each([
    '{"families":[]}',
    "[]",
    "null",
  ])("%s is an unreadable registry until a good one is published", async (text) => {
    service = await startService({ seedDataDir: await sampleDataDir() });
    const headers = { "x-api-key": service.createKey(["economics:read"]) };
    expect((await service.request("/api/public/v1/health/ready")).status).toBe(200);

    await publish(text);
    for (const route of ROUTES) {
      const { status, body } = await service.request(route, { headers });
      if (NEEDS_REGISTRY.has(route)) expect([route, body.error.code]).toEqual([route, "CONFIGURATION_ERROR"]);
      else expect([route, status]).toEqual([route, 200]);
    }
    const ready = await service.request("/api/public/v1/health/ready");
    expect(ready.status).toBe(503);
    expect(ready.body.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(service.logs).not.toContain("internal error");
    // Said once for the file, not once per request.
    const said = service.logs.filter((line) =>
      line.startsWith(
        `registry ${join(service!.dataDir, DATA_FILES.registry)} could not be read (registry is invalid: `,
      ),
    );
    expect(said).toHaveLength(1);

    rebuildRegistry(service.dataDir);
    await new Promise((resolve) => setTimeout(resolve, 3 * PUBLISHED_FILE_RECHECK_MS));
    for (const route of ROUTES)
      expect([route, (await service.request(route, { headers })).status]).toEqual([route, 200]);
    expect((await service.request("/api/public/v1/health/ready")).status).toBe(200);
  });
});
