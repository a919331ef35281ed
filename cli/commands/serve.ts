import type { Command } from "commander";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { DATA_FILES } from "../../schemas/data-files.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { createApp } from "../../server/app.ts";
import { startServer } from "../../server/listen.ts";
import { registryDirFrom, serveOptionsFrom, serviceConfigFrom } from "../config.ts";
import { createIngestionLauncher } from "../ingest/launch-ingestion.ts";
import { buildPlacesIndex } from "../places/build-places-index.ts";
import { acquireIngestionLock } from "../ingest/run-lock.ts";
import { runIngestion } from "../ingest/run-ingestion.ts";
import { publishRegistry } from "../registry/build-registry.ts";
import { readRegistrySources } from "./registry.ts";
import { packagePath } from "../package-paths.ts";

/** The bundled archive of real recorded publisher documents (see data/samples/SOURCES.md). */
export const SAMPLE_ARCHIVE_DIR = packagePath("data/samples");

interface ServeFlags {
  port?: string;
  host?: string;
  dataDir?: string;
  registryDir?: string;
  storage: boolean;
  env?: string;
  seedSamples?: boolean;
}

export function registerServeCommand(program: Command, env: NodeJS.ProcessEnv): void {
  program
    .command("serve")
    .description("Serve the API")
    .option("--port <port>", "port to listen on (env SERVICE_PORT, default 3000; 0 picks a free one)")
    .option("--host <host>", "address to listen on (env SERVICE_HOST, default 127.0.0.1)")
    .option("--data-dir <dir>", "data directory (env SERVICE_DATA_DIR, default ./var)")
    .option("--registry-dir <dir>", "folder of registry sources (env SERVICE_REGISTRY_DIR, default data/registry)")
    .option("--env <name>", "deployment environment (env SERVICE_ENV, default development)")
    .option("--no-storage", "run with no durable store bound: storage-backed routes answer 503")
    .option("--seed-samples", "for a first run: ingest the bundled sample archive (data/samples) and build the place index, where the data directory has none yet")
    .action(async (flags: ServeFlags) => {
      const config = serviceConfigFrom(env, flags);
      const { port, host } = serveOptionsFrom(env, flags);
      const registryDir = registryDirFrom(env, flags.registryDir);
      const registry = readRegistrySources(new Date(), registryDir);
      publishRegistry(registry, config.dataDir);
      if (flags.seedSamples && config.storageEnabled && !existsSync(join(config.dataDir, DATA_FILES.index))) {
        await seedFromSamples(config.dataDir, registry);
      }
      if (flags.seedSamples && !existsSync(join(config.dataDir, DATA_FILES.places))) {
        const places = buildPlacesIndex(config.dataDir);
        process.stderr.write(`place search index built: ${places.count} places\n`);
      }
      const app = createApp({ config, launchIngestion: config.storageEnabled ? createIngestionLauncher(config.dataDir, env, registryDir) : undefined });
      const server = await startServer(app, { port, hostname: host });
      process.stdout.write(`service (${config.environment}) listening on ${server.url} with data in ${config.dataDir}${config.storageEnabled ? "" : " (no durable storage)"}\n`);
    });
}

async function seedFromSamples(dataDir: string, registry: BuiltRegistry): Promise<void> {
  const release = acquireIngestionLock(dataDir);
  if (!release) return;
  try {
    process.stderr.write(`no index in ${dataDir} yet: ingesting the bundled sample archive\n`);
    const summary = await runIngestion({
      dataDir, registry, mode: { kind: "archive", dir: SAMPLE_ARCHIVE_DIR }, only: null,
      now: () => Date.now(), progress: (line) => process.stderr.write(`${line}\n`),
    });
    process.stderr.write(`sample archive ingested: ${summary.outcome}\n`);
  } finally {
    release();
  }
}
