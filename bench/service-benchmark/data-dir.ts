import { type CommandRun, createApiKey, runServiceCli } from "./cli-runner.ts";

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
