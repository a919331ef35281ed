import type { Command } from "commander";
import { dataDirFrom, registryDirFrom } from "../file-locations.ts";

export function registerRegistryCommand(program: Command, env: NodeJS.ProcessEnv): void {
  program
    .command("registry")
    .description(
      "Validate the registry sources (data/registry/*.json); publish the registry JSON where no index is published yet (else it goes out with the next ingest)",
    )
    .option("--data-dir <dir>", "data directory (env SERVICE_DATA_DIR, default ./var)")
    .option("--registry-dir <dir>", "folder of registry sources (env SERVICE_REGISTRY_DIR, default data/registry)")
    .action(async (options: { dataDir?: string; registryDir?: string }) => {
      // Loaded on use: validating loads ajv, which the other commands and `--help` should not pay for.
      const { publishRegistryUnlessIndexed, readRegistrySources } = await import("../registry/build-registry.ts");
      const { requireIngestionLock } = await import("../ingest/run-lock.ts");
      const dataDir = dataDirFrom(env, options.dataDir);
      const registry = readRegistrySources(new Date(), registryDirFrom(env, options.registryDir));
      // Under the ingestion lock, as ingest and serve publish it: a run in progress publishes the registry it read.
      const release = requireIngestionLock(dataDir);
      try {
        const { outcome, path } = publishRegistryUnlessIndexed(registry, dataDir);
        process.stdout.write(
          outcome === "published"
            ? `registry published to ${path}\n`
            : outcome === "unchanged"
              ? `registry valid, the same as the one published with the index in ${path}\n`
              : `registry valid; it goes out with the next ingestion run's index (${path} stays as published with the current one)\n`,
        );
      } finally {
        release();
      }
    });
}
