import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLISHED_FILE_RECHECK_MS } from "../../server/files/reloading-file.ts";
import { closedPort } from "../support/closed-port.ts";
import { SAMPLE_INGESTED_AT, sampleDataDir } from "../support/economics-index.ts";
import { type RunningService, startService } from "../support/service.ts";
import { runCliAsync } from "./cli-process.ts";

const CALENDAR = "/api/public/v1/economics/calendar?from=2026-11-01&to=2026-12-31&limit=20";
const STATUS = "/api/public/v1/status";

interface SourceCheck {
  sourceId: string;
  lastSuccessAt: string | null;
  latestCheck: string;
}

describe("a running server after an ingestion run in which every source failed", () => {
  let service: RunningService;

  beforeAll(async () => {
    // The server's clock is 6 hours after the sample run: its data is fresh and every check successful.
    service = await startService({ seedDataDir: await sampleDataDir() });
  });
  afterAll(async () => {
    await service?.close();
  });

  it("states the sources' latest checks as incomplete, with the data, its times and its last successes as they were", async () => {
    const before = await service.request(CALENDAR);
    expect(before.status).toBe(200);
    const checksBefore = before.body.meta.sourceChecks as SourceCheck[];
    expect(checksBefore.length).toBeGreaterThan(0);
    expect(checksBefore.map((check) => check.latestCheck)).toEqual(checksBefore.map(() => "successful"));
    expect((await service.request(STATUS)).body.data.domains.economics.status).toBe("ok");

    const dead = `http://127.0.0.1:${await closedPort()}`;
    const run = await runCliAsync(["ingest", "--data-dir", service.dataDir], {
      SERVICE_BLS_URL: dead,
      SERVICE_BLS_API_URL: dead,
      SERVICE_EUROSTAT_URL: dead,
      SERVICE_ECB_URL: dead,
      SERVICE_ECB_DATA_URL: dead,
      SERVICE_INGEST_RETRIES: "0",
      SERVICE_INGEST_TIMEOUT_MS: "2000",
      SERVICE_INGEST_USER_AGENT: "failed-run-checks-test (test@example.org)",
      // The run's checks come after the sample run's, as a real run's would.
      SERVICE_CLOCK_START: "2026-11-21T12:00:00Z",
    });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/: failed, source checks published$/m);

    // The server looks at the published files again within PUBLISHED_FILE_RECHECK_MS of a publication.
    await new Promise((resolve) => setTimeout(resolve, PUBLISHED_FILE_RECHECK_MS + 5));
    const after = await service.request(CALENDAR);
    expect(after.status).toBe(200);
    expect(after.body.meta.sourceChecks).toEqual(
      checksBefore.map((check) => ({ ...check, latestCheck: "incomplete", lastSuccessAt: SAMPLE_INGESTED_AT })),
    );
    expect(after.body.data).toEqual(before.body.data);
    for (const fact of ["dataUpdatedAt", "lastIngestedAt", "lastSuccessfulIngestionAt", "dataStatus"])
      expect(after.body.meta[fact], fact).toBe(before.body.meta[fact]);

    // status.ts: a stored domain none of whose checked feeds succeeded in its latest check is `unavailable`.
    const status = await service.request(STATUS);
    expect(status.status).toBe(200);
    expect(status.body.data.domains.economics.status).toBe("unavailable");
    expect(status.body.data.domains.economics.lastSuccessAt).toBe(SAMPLE_INGESTED_AT);
    expect(status.body.data.domains.news.status).toBe("unavailable");
  });
});
