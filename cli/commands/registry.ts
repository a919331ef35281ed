import type { Command } from "commander";
import { buildRegistry, publishRegistry } from "../registry/build-registry.ts";
import { dataDirFrom, DEFAULT_REGISTRY_DIR, registryDirFrom } from "../config.ts";

/** Validates the curated registry and publishes the registry JSON into the data directory. */
export function rebuildRegistry(dataDir: string, now: Date = new Date(), sourceDir: string = DEFAULT_REGISTRY_DIR): string {
  return publishRegistry(readRegistrySources(now, sourceDir), dataDir);
}

/** The curated registry, validated: the shipped one unless `sourceDir` names another (`--registry-dir`). */
export function readRegistrySources(now: Date = new Date(), sourceDir: string = DEFAULT_REGISTRY_DIR) {
  return buildRegistry(sourceDir, now.toISOString());
}

export function registerRegistryCommand(program: Command, env: NodeJS.ProcessEnv): void {
  program
    .command("registry")
    .description("Validate the registry sources (data/registry/*.json) and publish the registry JSON the server reads")
    .option("--data-dir <dir>", "data directory (env SERVICE_DATA_DIR, default ./var)")
    .option("--registry-dir <dir>", "folder of registry sources (env SERVICE_REGISTRY_DIR, default data/registry)")
    .action((options: { dataDir?: string; registryDir?: string }) => {
      const path = rebuildRegistry(dataDirFrom(env, options.dataDir), new Date(), registryDirFrom(env, options.registryDir));
      process.stdout.write(`registry published to ${path}\n`);
    });
}
