import { existsSync } from "node:fs";
import { join } from "node:path";
import { DATA_FILES } from "../../schemas/data-files.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { createApp } from "../../server/app.ts";
import type { IndexFollowingConfig, ServiceConfig } from "../../server/config.ts";
import { startServer } from "../../server/listen.ts";
import { createLogger, flushLog, type Logger, logProcessWarnings } from "../../server/observability/logger.ts";
import { createMetrics } from "../../server/observability/metrics.ts";
import { startMetricsServer } from "../../server/observability/metrics-listener.ts";
import type { IndexFollower } from "../../server/storage/index-follower.ts";
import { defaultWeatherUserAgentProblem, indexFollowingFrom, serveOptionsFrom, serviceConfigFrom } from "../config.ts";
import { ConfigError } from "../env-values.ts";
import { registryDirFrom, usableKeysFile } from "../file-locations.ts";
import { createIngestionLauncher } from "../ingest/launch-ingestion.ts";
import { acquireIngestionLock, ingestionLockHolder } from "../ingest/run-lock.ts";
import { listenFailure, type NamedListener } from "../listen-failure.ts";
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
  // MET Norway blocks clients that do not name themselves: in production that is a refusal to start, not a quiet 503 later.
  const anonymous = defaultWeatherUserAgentProblem(env, config);
  if (anonymous && config.environment === "production") throw new ConfigError(anonymous);
  usableKeysFile(env, config.keysFile);
  const listener = serveOptionsFrom(env, flags);
  const following = indexFollowingFrom(env, flags.indexFrom);
  if (following && (flags.seedSamples || !config.durableStorage)) {
    throw new ConfigError(
      "--index-from takes the index from object storage: it goes with neither --seed-samples nor --no-storage (SERVICE_STORAGE=false)",
    );
  }
  const registryDir = registryDirFrom(env, flags.registryDir);
  // From here on, everything serve says on stderr is a JSON line of its log (a refusal above is the one plain line).
  const logger = createLogger(config.logLevel ?? "info");
  if (anonymous) logger.warn({ setting: "SERVICE_WEATHER_USER_AGENT" }, anonymous);
  logProcessWarnings(logger);
  try {
    await serveWithLog(env, flags, { config, listener, following, registryDir }, logger);
  } catch (error) {
    // The log's buffered lines go out first: the refusal stays the last line on stderr.
    await new Promise<void>((resolve) => flushLog(logger, () => resolve()));
    throw error;
  }
}

/** The start once the log is there: registry, seed, place index, metrics listener, the API and the index follower. */
async function serveWithLog(
  env: NodeJS.ProcessEnv,
  flags: ServeFlags,
  settings: {
    config: ServiceConfig;
    listener: NamedListener;
    following: IndexFollowingConfig | null;
    registryDir: string;
  },
  logger: Logger,
): Promise<void> {
  const { config, listener, following, registryDir } = settings;
  const registry = readRegistrySources(new Date(), registryDir);
  // A follower's registry comes with each generation; its own build only stands in until the first one arrives.
  if (!following || !existsSync(join(config.dataDir, DATA_FILES.registry)))
    publishRegistryUnlessIngesting(registry, config.dataDir, logger);
  if (flags.seedSamples && config.durableStorage && !existsSync(join(config.dataDir, DATA_FILES.index))) {
    await seedFromSamples(config.dataDir, registry, logger);
  }
  ensurePlacesIndex(config.dataDir, (line) => logger.info(line), { build: buildPlacesInChildProcess });
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
      config.durableStorage && !following ? createIngestionLauncher(config.dataDir, env, registryDir) : undefined,
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
    `service (${config.environment}) listening on ${server.url} with data in ${config.dataDir}${config.durableStorage ? "" : " (no durable storage)"}\n`,
  );
  if (metricsListener)
    process.stdout.write(`metrics on ${metricsListener.url} (no key needed: keep this address private)\n`);
  // One writer: an instance following object storage never ingests; it downloads what the writer publishes.
  if (following) {
    const { createIndexFollower } = await import("../../server/storage/index-follower.ts");
    follower = createIndexFollower({ ...following, dataDir: config.dataDir, logger, metrics: metrics.registry });
    follower.start();
  }
}

/**
 * Publishes the registry under the ingestion lock where no index is published with one (build-registry.ts), as ingest
 * does: a run holding it publishes the registry itself, and
 * a serve started meanwhile must not overwrite it with its own build. It serves what is there until that run ends.
 */
function publishRegistryUnlessIngesting(registry: BuiltRegistry, dataDir: string, logger: Logger): void {
  const release = acquireIngestionLock(dataDir);
  if (!release) {
    const holder = ingestionLockHolder(dataDir);
    const meanwhile = existsSync(join(dataDir, DATA_FILES.registry))
      ? `serving the one in ${dataDir} until then`
      : `none is published in ${dataDir} yet, so registry routes answer CONFIGURATION_ERROR until it is`;
    logger.warn(
      `an ingestion run${holder === null ? "" : ` (pid ${holder})`} is in progress: it publishes the registry; ${meanwhile}`,
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

async function seedFromSamples(dataDir: string, registry: BuiltRegistry, logger: Logger): Promise<void> {
  const release = acquireIngestionLock(dataDir);
  if (!release) return;
  try {
    logger.info(`no index in ${dataDir} yet: ingesting the bundled sample archive`);
    // Loaded only here: the serving process otherwise never holds the ingestion code (its adapters, parsers, SDKs).
    const { runIngestion } = await import("../ingest/run-ingestion.ts");
    const summary = await runIngestion({
      dataDir,
      registry,
      mode: { kind: "archive", dir: SAMPLE_ARCHIVE_DIR },
      only: null,
      now: () => Date.now(),
      progress: (line) => logger.info(line),
    });
    logger.info({ outcome: summary.outcome }, `sample archive ingested: ${summary.outcome}`);
  } finally {
    release();
  }
}
