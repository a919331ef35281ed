import type { Command } from "commander";
import { dataDirFrom, registryDirFrom } from "../config.ts";

export function registerRegistryCommand(program: Command, env: NodeJS.ProcessEnv): void {
  program
    .command("registry")
    .description("Validate the registry sources (data/registry/*.json) and publish the registry JSON the server reads")
    .option("--data-dir <dir>", "data directory (env SERVICE_DATA_DIR, default ./var)")
    .option("--registry-dir <dir>", "folder of registry sources (env SERVICE_REGISTRY_DIR, default data/registry)")
    .action(async (options: { dataDir?: string; registryDir?: string }) => {
      // Loaded on use: validating loads ajv, which the other commands and `--help` should not pay for.
      const { rebuildRegistry } = await import("../registry/build-registry.ts");
      const { requireIngestionLock } = await import("../ingest/run-lock.ts");
      const dataDir = dataDirFrom(env, options.dataDir);
      // Under the ingestion lock, as ingest and serve publish it: a run in progress publishes the registry it read.
      const release = requireIngestionLock(dataDir);
      try {
        const path = rebuildRegistry(dataDir, new Date(), registryDirFrom(env, options.registryDir));
        process.stdout.write(`registry published to ${path}\n`);
      } finally {
        release();
      }
    });
}
