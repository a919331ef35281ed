import { existsSync } from "node:fs";
import { join } from "node:path";
import { DATA_FILES } from "../../schemas/data-files.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { createApp } from "../../server/app.ts";
import { startMetricsServer, startServer } from "../../server/listen.ts";
import { createLogger, flushLog } from "../../server/observability/logger.ts";
import { createMetrics } from "../../server/observability/metrics.ts";
import type { IndexFollower } from "../../server/storage/index-follower.ts";
import {
  ConfigError,
  indexFollowingFrom,
  registryDirFrom,
  serveOptionsFrom,
  serviceConfigFrom,
  usableKeysFile,
} from "../config.ts";
import { createIngestionLauncher } from "../ingest/launch-ingestion.ts";
import { acquireIngestionLock, ingestionLockHolder } from "../ingest/run-lock.ts";
import { listenFailure } from "../listen-failure.ts";
import { packagePath } from "../package-paths.ts";
import { buildPlacesInChildProcess, ensurePlacesIndex } from "../places/ensure-places-index.ts";
import { publishRegistryUnlessIndexed, readRegistrySources } from "../registry/build-registry.ts";

/** The flags of `service serve`, as commander hands them over (`storage` is false under `--no-storage`). */
export interface ServeFlags {
  port?: string;
  host?: string;
  dataDir?: string;
  registryDir?: string;
  storage: boolean;
  env?: string;
  seedSamples?: boolean;
  indexFrom?: string;
}

/** The bundled archive of real recorded publisher documents (see data/samples/SOURCES.md). */
export const SAMPLE_ARCHIVE_DIR = packagePath("data/samples");

/** `service serve`: publishes the registry, seeds a first run where asked, and serves the API. */
export async function startService(env: NodeJS.ProcessEnv, flags: ServeFlags): Promise<void> {
  const config = serviceConfigFrom(env, flags);
  usableKeysFile(env, config.keysFile);
  const listener = serveOptionsFrom(env, flags);
  const following = indexFollowingFrom(env, flags.indexFrom);
  if (following && (flags.seedSamples || !config.storageEnabled)) {
    throw new ConfigError(
      "--index-from takes the index from object storage: it goes with neither --seed-samples nor --no-storage (SERVICE_STORAGE=false)",
    );
  }
  const registryDir = registryDirFrom(env, flags.registryDir);
  const registry = readRegistrySources(new Date(), registryDir);
  // A follower's registry comes with each generation; its own build only stands in until the first one arrives.
  if (!following || !existsSync(join(config.dataDir, DATA_FILES.registry)))
    publishRegistryUnlessIngesting(registry, config.dataDir);
  if (flags.seedSamples && config.storageEnabled && !existsSync(join(config.dataDir, DATA_FILES.index))) {
    await seedFromSamples(config.dataDir, registry);
  }
  ensurePlacesIndex(config.dataDir, (line) => process.stderr.write(`${line}\n`), { build: buildPlacesInChildProcess });
  const logger = createLogger(config.logLevel ?? "info");
  const metrics = createMetrics();
  // Before the API listens: a metrics port that cannot be had stops the start, rather than leave the service unobserved.
  const metricsAddress = config.metricsListener;
  const metricsListener = metricsAddress
    ? await startMetricsServer(metrics, { port: metricsAddress.port, hostname: metricsAddress.host }).catch(
        (error: unknown) => {
          throw listenFailure(error, {
            ...metricsAddress,
            portSetting: "SERVICE_METRICS_PORT",
            hostSetting: "SERVICE_METRICS_HOST",
          });
        },
      )
    : null;
  const app = createApp({
    config,
    logger,
    metrics,
    launchIngestion:
      config.storageEnabled && !following ? createIngestionLauncher(config.dataDir, env, registryDir) : undefined,
  });
  let follower: IndexFollower | null = null;
  const shutdown = {
    graceMs: config.shutdownGraceMs ?? config.weather.timeoutMs + 5_000,
    log: (line: string) => logger.warn(line),
    // The log is written in batches: what is still buffered goes out before the process ends.
    beforeExit: async () => {
      await follower?.stop();
      await new Promise<void>((resolve) => flushLog(logger, () => resolve()));
    },
  };
  const serving = {
    port: listener.port,
    hostname: listener.host,
    shutdown,
    clientLimits: config.clientLimits,
    metrics,
  };
  const server = await startServer(app, serving).catch(async (error: unknown) => {
    await metricsListener?.close();
    throw listenFailure(error, listener);
  });
  process.stdout.write(
    `service (${config.environment}) listening on ${server.url} with data in ${config.dataDir}${config.storageEnabled ? "" : " (no durable storage)"}\n`,
  );
  if (metricsListener)
    process.stdout.write(`metrics on ${metricsListener.url} (no key needed: keep this address private)\n`);
  // One writer: an instance following object storage never ingests; it downloads what the writer publishes.
  if (following)
    follower = (await import("../../server/storage/index-follower.ts")).startIndexFollower(
      following,
      config.dataDir,
      logger,
      metrics.registry,
    );
}

/**
 * Publishes the registry under the ingestion lock where no index is published with one (build-registry.ts), as ingest
 * does: a run holding it publishes the registry itself, and
 * a serve started meanwhile must not overwrite it with its own build. It serves what is there until that run ends.
 */
function publishRegistryUnlessIngesting(registry: BuiltRegistry, dataDir: string): void {
  const release = acquireIngestionLock(dataDir);
  if (!release) {
    const holder = ingestionLockHolder(dataDir);
    const meanwhile = existsSync(join(dataDir, DATA_FILES.registry))
      ? `serving the one in ${dataDir} until then`
      : `none is published in ${dataDir} yet, so registry routes answer CONFIGURATION_ERROR until it is`;
    process.stderr.write(
      `an ingestion run${holder === null ? "" : ` (pid ${holder})`} is in progress: it publishes the registry; ${meanwhile}\n`,
    );
    return;
  }
  try {
    const { outcome } = publishRegistryUnlessIndexed(registry, dataDir);
    if (outcome === "waits-for-next-index")
      process.stderr.write(
        `the registry sources differ from the registry published with the index in ${dataDir}: they go out with the next ingestion run's index\n`,
      );
  } finally {
    release();
  }
}

async function seedFromSamples(dataDir: string, registry: BuiltRegistry): Promise<void> {
  const release = acquireIngestionLock(dataDir);
  if (!release) return;
  try {
    process.stderr.write(`no index in ${dataDir} yet: ingesting the bundled sample archive\n`);
    // Loaded only here: the serving process otherwise never holds the ingestion code (its adapters, parsers, SDKs).
    const { runIngestion } = await import("../ingest/run-ingestion.ts");
    const summary = await runIngestion({
      dataDir,
      registry,
      mode: { kind: "archive", dir: SAMPLE_ARCHIVE_DIR },
      only: null,
      now: () => Date.now(),
      progress: (line) => process.stderr.write(`${line}\n`),
    });
    process.stderr.write(`sample archive ingested: ${summary.outcome}\n`);
  } finally {
    release();
  }
}
