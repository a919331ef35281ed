import { join } from "node:path";
import { type CommandRun, createApiKey, PACKAGE_ROOT, runServiceCli } from "./cli-runner.ts";

/** The environment the benchmark's services run in, and their keys are made for. */
export const BENCH_ENVIRONMENT = "bench";

export interface PreparedDataDir {
  dataDir: string;
  ingest: CommandRun;
  apiKey: string;
}

export interface DataDirOptions {
  dataDir: string;
  archiveDir: string;
  /** Registry sources that describe the archive, when they are not the package's own. */
  registryDir?: string;
  /** The key is valid only in this environment; the service must run in the same one. */
  environment: string;
  ingestTimeoutMs: number;
}

/** Fills a data directory the way an operator would: `service ingest --from-archive`, then a key to read it with. */
export async function prepareDataDir(options: DataDirOptions): Promise<PreparedDataDir> {
  const ingest = await ingestArchive(options);
  const apiKey = await createApiKey(options.dataDir, options.environment);
  return { dataDir: options.dataDir, ingest, apiKey };
}

/** Timed, with the peak memory of the ingest process. */
export function ingestArchive(options: DataDirOptions): Promise<CommandRun> {
  return runServiceCli(["ingest", "--from-archive", options.archiveDir, "--data-dir", options.dataDir], {
    env: options.registryDir ? { SERVICE_REGISTRY_DIR: options.registryDir } : {},
    timeoutMs: options.ingestTimeoutMs,
    measurePeakMemory: true,
  });
}

/** A data directory ingested from the bundled sample archive (data/samples), with a key to read it. */
export function prepareSampleDataDir(dataDir: string): Promise<PreparedDataDir> {
  return prepareDataDir({
    dataDir,
    archiveDir: join(PACKAGE_ROOT, "data/samples"),
    environment: BENCH_ENVIRONMENT,
    ingestTimeoutMs: 120_000,
  });
}
