import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempDirs, runCliAsync, SAMPLES_DIR, tempDir } from "../ingest/cli-process.ts";
import { startObjectStoreStandin } from "../scale/object-store-process.ts";

describe("service ingest --log-format json", () => {
  afterAll(() => removeTempDirs());

  it("writes its progress, a line per source and one per run as JSON lines on stderr, and its summary on stdout", async () => {
    const dataDir = tempDir("ingest-json-log");
    // Publishing to an S3-compatible store too: the AWS SDK's own warning (on Node 20) must come as JSON as well.
    const store = await startObjectStoreStandin(join(tempDir("ingest-json-log-store"), "objects"), "json-log");
    let run: Awaited<ReturnType<typeof runCliAsync>>;
    try {
      run = await runCliAsync(
        ["ingest", "--from-archive", SAMPLES_DIR, "--data-dir", dataDir, "--log-format", "json"],
        { ...store.env, SERVICE_PUBLISH_URL: "s3://json-log/run" },
        { timeoutMs: 120_000 },
      );
    } finally {
      await store.kill();
    }
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/, index published$/m);
    expect(run.stdout).toMatch(/^generation \S+ published to s3:\/\/json-log\/run\/manifest\.json$/m);
    const lines = run.stderr
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, any>);
    expect(
      lines.every(
        (line) => typeof line.time === "string" && typeof line.level === "string" && typeof line.msg === "string",
      ),
    ).toBe(true);
    const sources = lines.filter((line) => line.msg === "source ingested" || line.msg === "source incomplete");
    expect(sources.map((line) => line.source)).toEqual(
      expect.arrayContaining(["labour-stats-release-schedule", "eurostat-sdmx", "bls-api", "ecb-data"]),
    );
    for (const line of sources)
      expect(line).toMatchObject({
        ok: expect.any(Boolean),
        documents: expect.any(Number),
        counts: expect.any(Object),
        runId: expect.stringMatching(/^run_/),
      });
    const finished = lines.filter((line) => line.msg === "ingestion run finished");
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({
      outcome: "succeeded",
      published: true,
      durationMs: expect.any(Number),
      totals: expect.objectContaining({ documents: expect.any(Number) }),
    });
    expect(new Set([...sources, ...finished].map((line) => line.runId)).size).toBe(1);
    // Progress steps go out as JSON too: nothing on stderr is left as plain text.
    expect(lines.length).toBeGreaterThan(sources.length + 1);
  }, 150_000);

  it("takes the format from SERVICE_LOG_FORMAT and refuses an unknown one as a usage error", async () => {
    const dataDir = tempDir("ingest-json-log-env");
    const quiet = await runCliAsync(
      ["ingest", "--from-archive", SAMPLES_DIR, "--data-dir", dataDir, "--source", "ecb-data"],
      { SERVICE_LOG_FORMAT: "json", SERVICE_LOG_LEVEL: "warn" },
      { timeoutMs: 120_000 },
    );
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(quiet.stderr.trim()).toBe("");
    const bad = await runCliAsync(["ingest", "--from-archive", SAMPLES_DIR, "--data-dir", dataDir], {
      SERVICE_LOG_FORMAT: "xml",
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/SERVICE_LOG_FORMAT must be one of text, json/);
    const badFlag = await runCliAsync(["ingest", "--data-dir", dataDir, "--log-format", "xml"]);
    expect(badFlag.status).toBe(2);
  }, 150_000);
});
