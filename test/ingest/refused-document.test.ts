import { join } from "node:path";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SOURCES } from "../../cli/ingest/sources.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { type PublisherStandin, startPublisherStandin } from "../support/publisher-standin.ts";
import { removeTempDirs, runCliAsync, tempDir } from "./cli-process.ts";
import { dumpTables } from "./sqlite-dump.ts";

/**
 * An observation API's request that the publisher refuses (a 404 for a series key it does not know) fails that
 * document alone: the API's other documents are still fetched and applied, and the source is reported incomplete.
 * A publisher that is unwell (a 500) still ends the source's turn.
 */
describe("a refused observation document", () => {
  const registry = readRegistrySources();
  let standin: PublisherStandin;
  let env: Record<string, string>;

  beforeAll(async () => {
    standin = await startPublisherStandin();
    env = {
      ...standin.env,
      SERVICE_INGEST_TIMEOUT_MS: "5000",
      SERVICE_INGEST_RETRIES: "0",
      SERVICE_INGEST_USER_AGENT: "refused-document-test (test@example.org)",
    };
  });
  afterAll(async () => {
    await standin?.close();
    removeTempDirs();
  });

  const eurostatPaths = () =>
    SOURCES.find((source) => source.slug === "eurostat-sdmx")!
      .requests({ hosts: standin.hosts, registry, now: DateTime.utc(), blsApiKey: null })
      .map((request) => new URL(request.url).pathname);
  const eurostatValues = (dataDir: string) =>
    (dumpTables(join(dataDir, "index.sqlite")).observations as { source: string | null }[]).filter(
      (row) => row.source === "eurostat-sdmx",
    ).length;

  it("fails alone on a 404: the other datasets' values are served and the source is incomplete, naming the refusal", async () => {
    const paths = eurostatPaths();
    expect(paths.length).toBeGreaterThan(1);
    const refused = paths.at(-1)!;
    standin.fail(refused, 404);
    const dataDir = tempDir("refused-404");
    const run = await runCliAsync(
      ["ingest", "--data-dir", dataDir, "--source", "eurostat-sdmx", "--source", "eu-stats-release-calendar"],
      env,
      { timeoutMs: 60_000 },
    );
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/incomplete sources: eurostat-sdmx/);
    expect(run.stderr).toMatch(/eurostat-sdmx: .*answered HTTP 404/);
    expect(eurostatValues(dataDir)).toBeGreaterThan(0);
  });

  it("still ends the turn on a 500: nothing of that source is applied in the run", async () => {
    const paths = eurostatPaths();
    standin.fail(paths.at(-1)!, 500);
    const dataDir = tempDir("refused-500");
    const run = await runCliAsync(
      ["ingest", "--data-dir", dataDir, "--source", "eurostat-sdmx", "--source", "eu-stats-release-calendar"],
      env,
      { timeoutMs: 60_000 },
    );
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/eurostat-sdmx: .*answered HTTP 500/);
    expect(eurostatValues(dataDir)).toBe(0);
  });
});
