import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIngestionLauncher } from "../../cli/ingest/launch-ingestion.ts";
import { removeEconomicsDataDirs, sampleDataDir } from "../support/economics-index.ts";
import { PUBLISHER_PATHS } from "../support/publisher-paths.ts";
import { type PublisherStandin, startPublisherStandin } from "../support/publisher-standin.ts";
import { type RunningService, startService } from "../support/service.ts";

const RUNS = "/api/v1/admin/ingestion/runs";

/**
 * The operator route's due run (`POST …/ingestion/runs?due=true`), on the calendar of the sample archive, with the
 * launched runs' clock set by SERVICE_CLOCK_START (in the launcher's environment, which its children inherit).
 */
describe("a due run through the operator route", () => {
  let publishers: PublisherStandin;
  const services: RunningService[] = [];

  async function serviceAt(clockStart: string) {
    const env = {
      PATH: process.env.PATH ?? "",
      ...publishers.env,
      SERVICE_INGEST_RETRIES: "0",
      SERVICE_CLOCK_START: clockStart,
    };
    const service = await startService({
      seedDataDir: await sampleDataDir(),
      launchIngestion: (dataDir) => createIngestionLauncher(dataDir, env),
    });
    services.push(service);
    const operator = service.createKey(["operator"]);
    return (path: string, init: RequestInit = {}) =>
      service.request(path, { ...init, headers: { authorization: `Bearer ${operator}` } });
  }

  beforeAll(async () => {
    publishers = await startPublisherStandin();
  });
  afterAll(async () => {
    for (const service of services) await service.close();
    await publishers.close();
    removeEconomicsDataDirs();
  });

  it("with nothing due starts nothing and says until when; a due value other than true or false is refused", async () => {
    const asOperator = await serviceAt("2026-09-30T12:00:00Z");
    const answer = await asOperator(`${RUNS}?due=true`, { method: "POST" });
    expect(answer.status).toBe(202);
    expect(answer.body.data).toMatchObject({ started: false, runId: null });
    // Eurostat dates its releases without a time: the hour is its customary one, and the line says the event has none.
    expect(answer.body.data.nothingDue).toMatch(
      /^nothing due until 2026-10-01T09:00:00Z, eurostat-[a-z-]+ \(.+, dated 2026-10-01 with no time: asked for from the customary 11:00 Europe\/Luxembourg\)$/,
    );
    expect(answer.headers.get("location")).toBeNull();
    expect(publishers.requests).toEqual([]);

    // A closed vocabulary, read as every other parameter's is: in any case.
    const upper = await asOperator(`${RUNS}?due=TRUE`, { method: "POST" });
    expect(upper.body.data).toMatchObject({ started: false, nothingDue: answer.body.data.nothingDue });
    const refused = await asOperator(`${RUNS}?due=yes`, { method: "POST" });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("VALIDATION_FAILED");
  });

  it("with a release due starts `service ingest --due`, which asks only that release's publisher API", async () => {
    const asOperator = await serviceAt("2026-10-01T09:30:00Z");
    const started = await asOperator(`${RUNS}?due=true`, { method: "POST" });
    expect(started.status).toBe(202);
    expect(started.body.data.started).toBe(true);
    expect(started.body.data).not.toHaveProperty("nothingDue");
    const location = started.headers.get("location")!;
    let run = (await asOperator(location)).body.data.run;
    for (let attempt = 0; attempt < 300 && run.outcome === "running"; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      run = (await asOperator(location)).body.data.run;
    }
    expect(run.sources.map((source: { sourceId: string }) => source.sourceId)).toEqual(["eurostat-sdmx"]);
    const log = readFileSync(run.logFile, "utf8");
    expect(log).toContain("[1/1] eurostat-sdmx: fetching…");
    expect(publishers.requests.length).toBeGreaterThan(0);
    expect(
      publishers.requests.every((request) => request.path.startsWith(PUBLISHER_PATHS.eurostatData.slice(0, -1))),
    ).toBe(true);
  });
});
