import type { Command } from "commander";
import { fileURLToPath } from "node:url";
import { buildRegistry, publishRegistry } from "../registry/build-registry.ts";
import { dataDirFrom } from "../config.ts";

/** The curated registry sources shipped with the service. */
export const REGISTRY_SOURCE_DIR = fileURLToPath(new URL("../../data/registry/", import.meta.url));

/** Validates the curated registry and publishes the registry JSON into the data directory. */
export function rebuildRegistry(dataDir: string, now: Date = new Date()): string {
  return publishRegistry(readRegistrySources(now), dataDir);
}

/** The curated registry, validated. */
export function readRegistrySources(now: Date = new Date()) {
  return buildRegistry(REGISTRY_SOURCE_DIR, now.toISOString());
}

export function registerRegistryCommand(program: Command, env: NodeJS.ProcessEnv): void {
  program
    .command("registry")
    .description("Validate data/registry/*.json and publish the registry JSON the server reads")
    .option("--data-dir <dir>", "data directory (env SERVICE_DATA_DIR, default ./var)")
    .action((options: { dataDir?: string }) => {
      const path = rebuildRegistry(dataDirFrom(env, options.dataDir));
      process.stdout.write(`registry published to ${path}\n`);
    });
}
