import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIngestionLauncher } from "../../cli/ingest/launch-ingestion.ts";
import { openStore } from "../../cli/ingest/ledger/store.ts";
import { acquireIngestionLock } from "../../cli/ingest/run-lock.ts";
import { RUN_ID_PATTERN } from "../../schemas/ingestion-runs.ts";
import { type PublisherStandin, startPublisherStandin } from "../support/publisher-standin.ts";
import { type RunningService, startService } from "../support/service.ts";

const RUNS = "/api/v1/admin/ingestion/runs";

/** Asks again every 100 ms until `done` holds of the answer, or gives up after 30 s and returns the last answer. */
async function poll<T>(ask: () => Promise<T>, done: (answer: T) => boolean): Promise<T> {
  let answer = await ask();
  for (let attempt = 0; attempt < 300 && !done(answer); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = await ask();
  }
  return answer;
}

describe("operator ingestion routes", () => {
  let publishers: PublisherStandin;
  let service: RunningService;
  let operator: string;
  let childEnv: Record<string, string>;

  beforeAll(async () => {
    publishers = await startPublisherStandin();
    childEnv = {
      PATH: process.env.PATH ?? "",
      ...publishers.env,
      SERVICE_INGEST_RETRIES: "0",
      SERVICE_INGEST_TIMEOUT_MS: "5000",
    };
    service = await startService({ launchIngestion: (dataDir) => createIngestionLauncher(dataDir, childEnv) });
    operator = service.createKey(["operator"]);
  });
  afterAll(async () => {
    await service.close();
    await publishers.close();
  });

  const asOperator = (path = RUNS, init: RequestInit = {}) =>
    service.request(path, { ...init, headers: { authorization: `Bearer ${operator}` } });
  const finished = (answer: { status: number; body: any }) =>
    answer.status === 200 && answer.body.data.run.outcome !== "running";

  it("lists no runs before any ingestion", async () => {
    const { status, body } = await asOperator();
    expect(status).toBe(200);
    expect(body.data.runs).toEqual([]);
  });

  it("starts `service ingest` for the operator: 202 with the run's id and Location; the run route follows it to its end and names its log", async () => {
    const storageRoute = "/api/public/v1/economics/calendar?from=2026-06-01&to=2026-06-30";
    expect((await service.request(storageRoute)).status).toBe(503);

    const started = await asOperator(RUNS, { method: "POST" });
    expect(started.status).toBe(202);
    expect(started.body.data.started).toBe(true);
    const runId: string = started.body.data.runId;
    expect(runId).toMatch(RUN_ID_PATTERN);
    const location = started.headers.get("location");
    expect(location).toBe(`${RUNS}/${runId}`);

    // The run answers at once, whether or not the child has recorded it yet.
    const first = await asOperator(location!);
    expect(first.status).toBe(200);
    expect(first.body.data.run.id).toBe(runId);
    expect(["running", "succeeded"]).toContain(first.body.data.run.outcome);

    const done = await poll(() => asOperator(location!), finished);
    const run = done.body.data.run;
    expect(run.outcome).toBe("succeeded");
    expect(run.finishedAt).toEqual(expect.any(String));
    expect(run.detail).toBeNull();
    expect(run.sources.length).toBeGreaterThan(0);
    expect(run.sources.every((source: { check: string }) => source.check === "successful")).toBe(true);
    expect(run.logFile).toBe(join(service.dataDir, "logs", `ingestion-${runId}.log`));

    // The summary is the child's last output, written just after the run is recorded finished.
    const log = await poll(
      async () => readFileSync(run.logFile, "utf8"),
      (text) => text.includes(`run ${runId}: succeeded`),
    );
    const lines = log.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      new RegExp(`^ingestion run ${runId} started through the operator route by the service \\(pid \\d+\\) at `),
    );
    expect(log).toMatch(/^\[1\/\d+\] [a-z-]+: fetching…$/m);
    expect(log).toMatch(/^\[\d+\/\d+\] [a-z-]+: ok — \d+ documents?/m);
    expect(log).toContain(`run ${runId}: succeeded, index published`);

    const listed = await asOperator();
    expect(listed.body.data.runs.map((entry: { id: string }) => entry.id)).toEqual([runId]);
    expect(publishers.requests.length).toBeGreaterThan(0);
    expect((await service.request(storageRoute)).status).toBe(200);
  });

  it("does not start a second run while one is in progress, and names the run in progress", async () => {
    // The previous test's child may still be exiting after recording its run; wait until this server may start one.
    const first = await poll(
      () => asOperator(RUNS, { method: "POST" }),
      (answer) => answer.body.data.started === true,
    );
    const second = await asOperator(RUNS, { method: "POST" });
    expect(first.body.data.started).toBe(true);
    expect(second.status).toBe(202);
    expect(second.body.data.started).toBe(false);
    expect(second.body.data.runId).toBe(first.body.data.runId);
    expect(second.headers.get("location")).toBe(first.headers.get("location"));
    expect((await poll(() => asOperator(first.headers.get("location")!), finished)).body.data.run.outcome).toBe(
      "succeeded",
    );
  });

  it("answers an unknown or malformed run id with NOT_FOUND, and every caller without an operator key like an unregistered path", async () => {
    for (const id of ["run_20200101T000000_000000", "nosuch", "run_..%2F..%2Fkeys"]) {
      const answer = await asOperator(`${RUNS}/${id}`);
      expect(answer.status, id).toBe(404);
      expect(answer.body.error.code, id).toBe("NOT_FOUND");
    }
    const economics = service.createKey(["economics:read"]);
    for (const headers of [{}, { authorization: `Bearer ${economics}` }] as Record<string, string>[]) {
      const answer = await service.request(`${RUNS}/run_20200101T000000_000000`, { headers });
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe("NOT_FOUND");
    }
  });
});

describe("an operator-launched run whose process ends before it records itself", () => {
  let service: RunningService;
  let operator: string;

  beforeAll(async () => {
    const env = { PATH: process.env.PATH ?? "" };
    service = await startService({
      launchIngestion: (dataDir) => createIngestionLauncher(dataDir, env, "/nonexistent-registry-folder"),
    });
    operator = service.createKey(["operator"]);
  });
  afterAll(() => service.close());

  it("is answered from the launch as failed, with the exit code and the log saying why", async () => {
    const asOperator = (path: string, init: RequestInit = {}) =>
      service.request(path, { ...init, headers: { authorization: `Bearer ${operator}` } });
    const started = await asOperator(RUNS, { method: "POST" });
    expect(started.status).toBe(202);
    expect(started.body.data.started).toBe(true);
    const done = await poll(
      () => asOperator(started.headers.get("location")!),
      (answer) => answer.body.data.run.outcome !== "running",
    );
    const run = done.body.data.run;
    expect(run).toMatchObject({ id: started.body.data.runId, outcome: "failed", sources: [] });
    expect(run.finishedAt).toEqual(expect.any(String));
    expect(run.detail).toBe(
      "the ingestion process ended before recording its run (exit code 2); its log file says why",
    );
    expect(readFileSync(run.logFile, "utf8")).toContain(
      "configuration error: --registry-dir /nonexistent-registry-folder is not a folder",
    );
    expect((await asOperator(RUNS)).body.data.runs).toEqual([]);
  });
});

describe("a run another process has in progress (a scheduled `service ingest` holding the lock, recorded in the ledger)", () => {
  let service: RunningService;
  let operator: string;

  beforeAll(async () => {
    service = await startService({
      launchIngestion: (dataDir) => createIngestionLauncher(dataDir, { PATH: process.env.PATH ?? "" }),
    });
    operator = service.createKey(["operator"]);
  });
  afterAll(() => service.close());

  it("is named by the trigger, which starts nothing", async () => {
    const asOperator = (path: string, init: RequestInit = {}) =>
      service.request(path, { ...init, headers: { authorization: `Bearer ${operator}` } });
    // This test process plays the scheduled run: it holds the data directory's lock and records its run.
    const release = acquireIngestionLock(service.dataDir);
    expect(release).not.toBeNull();
    const store = openStore(join(service.dataDir, "store.sqlite"));
    const scheduledId = "run_20261121T120000_abcdef";
    try {
      const before = await asOperator(RUNS, { method: "POST" });
      expect(before.body.data).toMatchObject({ started: false, runId: null });
      expect(before.headers.get("location")).toBeNull();

      store.startRun(scheduledId, new Date().toISOString(), "fetch");
      const answer = await asOperator(RUNS, { method: "POST" });
      expect(answer.status).toBe(202);
      expect(answer.body.data).toMatchObject({ started: false, runId: scheduledId });
      expect(answer.headers.get("location")).toBe(`${RUNS}/${scheduledId}`);
      const run = await asOperator(`${RUNS}/${scheduledId}`);
      expect(run.body.data.run).toMatchObject({
        id: scheduledId,
        outcome: "running",
        finishedAt: null,
        logFile: null,
        detail: null,
        sources: [],
      });
    } finally {
      store.finishRun(scheduledId, new Date().toISOString(), "failed", { error: "stopped by the test" });
      store.close();
      release!();
    }
    const closed = await asOperator(`${RUNS}/${scheduledId}`);
    expect(closed.body.data.run).toMatchObject({ outcome: "failed", detail: "stopped by the test" });
  });
});
