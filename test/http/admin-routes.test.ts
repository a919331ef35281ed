import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIngestionLauncher } from "../../cli/ingest/launch-ingestion.ts";
import { startPublisherStandin, type PublisherStandin } from "../support/publisher-standin.ts";
import { startService, type RunningService } from "../support/service.ts";

const RUNS = "/api/v1/admin/ingestion/runs";

describe("operator ingestion routes", () => {
  let publishers: PublisherStandin;
  let service: RunningService;
  let operator: string;

  beforeAll(async () => {
    publishers = await startPublisherStandin();
    const env = { PATH: process.env.PATH ?? "", ...publishers.env, SERVICE_INGEST_RETRIES: "0", SERVICE_INGEST_TIMEOUT_MS: "5000" };
    service = await startService({ launchIngestion: (dataDir) => createIngestionLauncher(dataDir, env) });
    operator = service.createKey(["operator"]);
  });
  afterAll(async () => {
    await service.close();
    await publishers.close();
  });

  const asOperator = (init: RequestInit = {}) => service.request(RUNS, { ...init, headers: { authorization: `Bearer ${operator}` } });

  it("lists no runs before any ingestion", async () => {
    const { status, body } = await asOperator();
    expect(status).toBe(200);
    expect(body.data.runs).toEqual([]);
  });

  it("starts `service ingest` for the operator, which fetches, records its run and publishes the index the server then serves", async () => {
    const storageRoute = "/api/public/v1/economics/calendar?from=2026-06-01&to=2026-06-30";
    expect((await service.request(storageRoute)).status).toBe(503);

    const started = await asOperator({ method: "POST" });
    expect(started.status).toBe(202);
    expect(started.body.data.started).toBe(true);

    let runs: { outcome: string; sources: { sourceId: string; check: string }[] }[] = [];
    for (let attempt = 0; attempt < 150 && !(runs[0] && runs[0].outcome !== "running"); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const answer = await asOperator();
      if (answer.status === 200) runs = answer.body.data.runs;
    }
    expect(runs).toHaveLength(1);
    expect(runs[0]!.outcome).toBe("succeeded");
    expect(runs[0]!.sources.every((source) => source.check === "successful")).toBe(true);
    expect(publishers.requests.length).toBeGreaterThan(0);
    expect((await service.request(storageRoute)).status).toBe(200);
  });

  it("does not start a second run while one is in progress", async () => {
    // The previous test's child may still be exiting after recording its run; wait until this server may start one.
    let first = await asOperator({ method: "POST" });
    for (let attempt = 0; attempt < 50 && !first.body.data.started; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      first = await asOperator({ method: "POST" });
    }
    const second = await asOperator({ method: "POST" });
    expect(first.body.data.started).toBe(true);
    expect(second.status).toBe(202);
    expect(second.body.data.started).toBe(false);
  });
});
