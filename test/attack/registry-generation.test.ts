import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UPSTREAM_VARIABLES } from "../../cli/config.ts";
import { DATA_FILES } from "../../schemas/data-files.ts";
import type { Series } from "../../schemas/registry.ts";
import { PUBLISHED_FILE_RECHECK_MS } from "../../server/files/reloading-file.ts";
import { runCliAsync, SAMPLES_DIR } from "../ingest/cli-process.ts";
import { closedPort } from "../support/closed-port.ts";
import { removeEconomicsDataDirs, sampleDataDir } from "../support/economics-index.ts";
import { runCli } from "../support/run-cli.ts";
import { type RunningService, startService } from "../support/service.ts";

/**
 * The registry and the index are one generation. `ingest` published the registry before it fetched anything, so a run
 * in which every source failed left the old index served with a new registry: the issue saw `series` go from 27 to 61
 * entries and an observations route from 200 to 404.
 */

const SERIES = "us-cpi-all-items-sa";

/** The shipped registry with one series made inactive: a registry-only change the series listing shows. */
function changedRegistryDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "registry-generation-sources-"));
  cpSync("data/registry", dir, { recursive: true });
  const series = JSON.parse(readFileSync(join(dir, "series.json"), "utf8")) as Series[];
  writeFileSync(
    join(dir, "series.json"),
    JSON.stringify(series.map((entry) => (entry.slug === SERIES ? { ...entry, active: false } : entry))),
  );
  return dir;
}

describe("the registry published with the index, as one generation", () => {
  let service: RunningService;
  let registryDir: string;
  let key: string;

  beforeAll(async () => {
    service = await startService({ seedDataDir: await sampleDataDir() });
    registryDir = changedRegistryDir();
    key = service.createKey(["economics:read"]);
  });
  afterAll(async () => {
    await service?.close();
    rmSync(registryDir, { recursive: true, force: true });
    removeEconomicsDataDirs();
  });

  const served = async () => {
    const series = await service.request("/api/v1/economics/series?limit=100", {
      headers: { authorization: `Bearer ${key}` },
    });
    const observations = await service.request(`/api/public/v1/economics/observations?series=${SERIES}`);
    return {
      series: [series.status, series.body?.data],
      observations: [observations.status, observations.body?.data],
    };
  };
  const registryBytes = () => readFileSync(join(service.dataDir, DATA_FILES.registry));
  const settle = () => new Promise((resolve) => setTimeout(resolve, PUBLISHED_FILE_RECHECK_MS * 3));

  it("a run in which every source fails leaves registry.json and the served data exactly as they were (it publishes only its checks)", async () => {
    const before = { registry: registryBytes(), answers: await served() };
    expect(before.answers.series[0]).toBe(200);
    const unreachable = `http://127.0.0.1:${await closedPort()}`;
    const run = await runCliAsync(["ingest", "--registry-dir", registryDir], {
      SERVICE_DATA_DIR: service.dataDir,
      SERVICE_INGEST_RETRIES: "0",
      SERVICE_INGEST_TIMEOUT_MS: "2000",
      ...Object.fromEntries(
        UPSTREAM_VARIABLES.filter((upstream) => upstream.domain === "economics").map((upstream) => [
          upstream.variable,
          unreachable,
        ]),
      ),
    });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toContain("failed, source checks published");
    await settle();
    expect(registryBytes().equals(before.registry)).toBe(true);
    expect(await served()).toEqual(before.answers);
  }, 60_000);

  it("`service registry` leaves a registry-only change to the next index, which then takes it out with it", async () => {
    const before = { registry: registryBytes(), answers: await served() };
    const registry = runCli(["registry", "--registry-dir", registryDir], { SERVICE_DATA_DIR: service.dataDir });
    expect(registry.status, registry.stderr).toBe(0);
    expect(registry.stdout).toContain("goes out with the next ingestion run's index");
    await settle();
    expect(registryBytes().equals(before.registry)).toBe(true);
    expect(await served()).toEqual(before.answers);

    const run = await runCliAsync(["ingest", "--registry-dir", registryDir, "--from-archive", SAMPLES_DIR], {
      SERVICE_DATA_DIR: service.dataDir,
    });
    expect(run.stdout, run.stderr).toContain("index published");
    await settle();
    const published = JSON.parse(registryBytes().toString("utf8")) as { series: Series[] };
    expect(published.series.find((entry) => entry.slug === SERIES)?.active).toBe(false);
    const after = await served();
    expect((after.series[1] as { series: { slug: string }[] }).series.map((entry) => entry.slug)).not.toContain(SERIES);
  }, 90_000);
});
