import { existsSync } from "node:fs";
import { join } from "node:path";
import { DATA_FILES } from "../../schemas/data-files.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { createApp } from "../../server/app.ts";
import { startServer } from "../../server/listen.ts";
import { createLogger } from "../../server/observability/logger.ts";
import type { ServeFlags } from "../commands/serve.ts";
import { registryDirFrom, serveOptionsFrom, serviceConfigFrom } from "../config.ts";
import { createIngestionLauncher } from "../ingest/launch-ingestion.ts";
import { acquireIngestionLock } from "../ingest/run-lock.ts";
import { runIngestion } from "../ingest/run-ingestion.ts";
import { packagePath } from "../package-paths.ts";
import { buildPlacesIndex } from "../places/build-places-index.ts";
import { publishRegistry, readRegistrySources } from "../registry/build-registry.ts";

/** The bundled archive of real recorded publisher documents (see data/samples/SOURCES.md). */
export const SAMPLE_ARCHIVE_DIR = packagePath("data/samples");

/** `service serve`: publishes the registry, seeds a first run where asked, and serves the API. */
export async function startService(env: NodeJS.ProcessEnv, flags: ServeFlags): Promise<void> {
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
  const logger = createLogger(config.logLevel ?? "info");
  const app = createApp({ config, logger, launchIngestion: config.storageEnabled ? createIngestionLauncher(config.dataDir, env, registryDir) : undefined });
  const shutdown = {
    graceMs: config.shutdownGraceMs ?? config.weather.timeoutMs + 5_000,
    log: (line: string) => logger.warn(line),
    // The log is written in batches: what is still buffered goes out before the process ends.
    beforeExit: () => new Promise<void>((resolve) => logger.flush(() => resolve())),
  };
  const server = await startServer(app, { port, hostname: host, shutdown });
  process.stdout.write(`service (${config.environment}) listening on ${server.url} with data in ${config.dataDir}${config.storageEnabled ? "" : " (no durable storage)"}\n`);
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
