import { copyFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DATA_FILES } from "../../schemas/data-files.ts";
import { PUBLISHED_FILE_RECHECK_MS } from "../../server/files/reloading-file.ts";
import {
  edgeCaseDataDir,
  emptyIndexDataDir,
  noIngestionDataDir,
  removeEconomicsDataDirs,
  sampleDataDir,
} from "../support/economics-index.ts";
import { credentialedClient } from "../support/economics-requests.ts";
import { fakeClock, type RunningService, type ServiceOptions, startService } from "../support/service.ts";

afterAll(removeEconomicsDataDirs);

/** Every storage-backed economics route, with parameters that would be valid on a complete index. */
const STORAGE_ROUTES = [
  { path: "/api/v1/economics/events?from=2026-03-01&to=2026-03-31", credentialed: true },
  { path: "/api/v1/economics/calendar?from=2026-03-01&to=2026-03-31", credentialed: true },
  { path: "/api/v1/economics/series/us-cpi-all-items-nsa/observations", credentialed: true },
  { path: "/api/public/v1/economics/calendar?from=2026-03-01&to=2026-03-31", credentialed: false },
  { path: "/api/public/v1/economics/releases", credentialed: false },
  { path: "/api/public/v1/economics/observations?series=us-cpi-all-items-nsa", credentialed: false },
];

describe("storage rules of the economics routes", () => {
  const services: RunningService[] = [];
  afterAll(async () => {
    for (const service of services) await service.close();
  });

  async function start(options: ServiceOptions) {
    const service = await startService({ clock: fakeClock("2026-03-14T12:00:00Z"), ...options });
    services.push(service);
    return { service, get: credentialedClient(service) };
  }

  async function expectAllUnavailable(service: RunningService, get: ReturnType<typeof credentialedClient>) {
    for (const route of STORAGE_ROUTES) {
      const response = route.credentialed ? await get(route.path) : await service.request(route.path);
      expect(response.status, route.path).toBe(503);
      expect(response.body.error.code, route.path).toBe("SERVICE_UNAVAILABLE");
      expect(response.headers.get("retry-after"), route.path).toMatch(/^[1-9][0-9]*$/);
    }
    for (const route of STORAGE_ROUTES.filter((candidate) => candidate.credentialed)) {
      const head = await get(route.path, { method: "HEAD" });
      expect(head.status, `HEAD ${route.path}`).toBe(503);
      expect(head.headers.get("retry-after")).toMatch(/^[0-9]+$/);
      expect(head.text).toBe("");
    }
  }

  it("answers 503 SERVICE_UNAVAILABLE with Retry-After when there is no index at all", async () => {
    const { service, get } = await start({});
    await expectAllUnavailable(service, get);
  });

  it("answers 503 when an index exists but no ingestion ever completed", async () => {
    const { service, get } = await start({ seedDataDir: await noIngestionDataDir() });
    await expectAllUnavailable(service, get);
  });

  it("answers 503 on a deployment without durable storage, even with a complete index on disk", async () => {
    const { service, get } = await start({ seedDataDir: await sampleDataDir(), durableStorage: false });
    await expectAllUnavailable(service, get);
    // The registry routes need no storage.
    expect((await service.request("/api/v1/economics/series")).status).toBe(200);
    expect((await service.request("/api/v1/economics/indicators")).status).toBe(200);
  });

  it("answers 200 with empty lists for an index that matches nothing", async () => {
    const { service, get } = await start({ seedDataDir: await edgeCaseDataDir() });
    const events = await get("/api/v1/economics/events?from=2026-03-01&to=2026-03-31&country=JP");
    expect(events.status).toBe(200);
    expect(events.body.data.entries).toEqual([]);
    const calendar = await get("/api/v1/economics/calendar?from=2025-01-01&to=2025-01-31");
    expect(calendar.status).toBe(200);
    expect(calendar.body.data.days).toEqual([]);
    const publicCalendar = await service.request(
      "/api/public/v1/economics/calendar?from=2026-03-01&to=2026-03-31&release=no-such-release",
    );
    expect(publicCalendar.status).toBe(200);
    expect(publicCalendar.body.data.days).toEqual([]);
    const observations = await service.request(
      "/api/public/v1/economics/observations?series=us-cpi-all-items-nsa&from=1990-01&to=1990-12",
    );
    expect(observations.status).toBe(200);
    expect(observations.body.data.observations).toEqual([]);
  });

  it("answers 200 with empty lists on a completed ingestion that found nothing, and 503 for a series with nothing ingested", async () => {
    const { service, get } = await start({ seedDataDir: await emptyIndexDataDir() });
    const events = await get("/api/v1/economics/events");
    expect(events.status).toBe(200);
    expect(events.body.data.entries).toEqual([]);
    expect(events.body.meta).toMatchObject({ lastIngestedAt: "2026-03-05T06:00:00.000Z", nextCursor: null });
    const calendar = await get("/api/v1/economics/calendar");
    expect(calendar.status).toBe(200);
    expect(calendar.body.data.days).toEqual([]);
    const publicCalendar = await service.request("/api/public/v1/economics/calendar");
    expect(publicCalendar.status).toBe(200);
    expect(publicCalendar.body.data.days).toEqual([]);
    const releases = await service.request("/api/public/v1/economics/releases?limit=100");
    expect(releases.status).toBe(200);
    expect(releases.body.data.releases.length).toBeGreaterThan(0);
    expect(
      releases.body.data.releases.every((release: { availability: string }) => release.availability === "UNAVAILABLE"),
    ).toBe(true);
    const observations = await service.request("/api/public/v1/economics/observations?series=us-cpi-all-items-nsa");
    expect(observations.status).toBe(503);
    expect(observations.body.error.code).toBe("SERVICE_UNAVAILABLE");
  });

  it("follows the published index: 503 before the first completed ingestion, 200 once one is renamed into place, 503 again if replaced by an unfinished one", async () => {
    const { service, get } = await start({});
    const path = "/api/v1/economics/events?from=2026-03-01&to=2026-03-31";
    expect((await get(path)).status).toBe(503);
    // The server looks at published files again within PUBLISHED_FILE_RECHECK_MS: each step waits that long.
    const published = () => new Promise((resolve) => setTimeout(resolve, PUBLISHED_FILE_RECHECK_MS + 5));
    const publish = async (sourceDir: string) => {
      const staging = join(service.dataDir, `${DATA_FILES.index}.staging`);
      copyFileSync(join(sourceDir, DATA_FILES.index), staging);
      renameSync(staging, join(service.dataDir, DATA_FILES.index));
      await published();
    };
    await publish(await edgeCaseDataDir());
    const served = await get(path);
    expect(served.status).toBe(200);
    expect(served.body.data.entries.length).toBeGreaterThan(0);
    await publish(await noIngestionDataDir());
    expect((await get(path)).status).toBe(503);
    rmSync(join(service.dataDir, DATA_FILES.index));
    await published();
    expect((await service.request("/api/public/v1/economics/releases")).status).toBe(503);
  });
});
