import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { type Command, InvalidArgumentError, Option } from "commander";
import { RUN_ID_PATTERN } from "../../schemas/ingestion-runs.ts";
import { CALENDAR_SOURCES, NEWS_FEEDS, OBSERVATION_APIS } from "../../schemas/vocabularies.ts";
import type { LogLevel } from "../../server/observability/log-levels.ts";
import { publishTargetFrom, serviceConfigFrom } from "../config.ts";
import { nonEmptyFlag } from "../env-values.ts";
import { registryDirFrom } from "../file-locations.ts";
import { ingestClockFrom } from "../ingest/due/due-settings.ts";
import type { IngestSummary } from "../ingest/run-ingestion.ts";
import { INGEST_LOG_FORMATS, type IngestLogFormat, logRunSummary } from "../ingest/run-log.ts";
import { skippedLines } from "../ingest/skipped-summary.ts";
import { blsApiKeyFrom, ingestHttpFrom, ingestLogFormatFrom, upstreamHostsFrom } from "../ingest-config.ts";
import { EXIT_CODES } from "../usage.ts";

/** Every source a run can be limited to, in the order a run takes them (cli/ingest/sources.ts). */
const SOURCE_SLUGS = [...CALENDAR_SOURCES, ...OBSERVATION_APIS, ...NEWS_FEEDS];

function collectSource(value: string, previous: string[] = []): string[] {
  if (!(SOURCE_SLUGS as string[]).includes(value))
    throw new InvalidArgumentError(`source must be one of ${SOURCE_SLUGS.join(", ")}`);
  return [...previous, value];
}

/** A due run asks observation APIs alone: a calendar or feed named with --due would never be asked. */
function requireObservationSources(sources: string[] | undefined): void {
  const other = (sources ?? []).filter((source) => !(OBSERVATION_APIS as readonly string[]).includes(source));
  if (other.length > 0)
    throw new InvalidArgumentError(
      `--due asks only the observation APIs (${OBSERVATION_APIS.join(", ")}); --source ${other.join(", ")} is not one`,
    );
}

function runIdOf(value: string): string {
  if (!RUN_ID_PATTERN.test(value)) throw new InvalidArgumentError("run id must look like run_20261121T120000_a1b2c3");
  return value;
}

export function registerIngestCommand(program: Command, env: NodeJS.ProcessEnv): void {
  program
    .command("ingest")
    .description("Fetch publisher calendars and values into the store, then publish the index the server reads")
    .option("--data-dir <dir>", "data directory (env SERVICE_DATA_DIR, default ./var)")
    .option("--registry-dir <dir>", "folder of registry sources (env SERVICE_REGISTRY_DIR, default data/registry)")
    .option(
      "--from-archive <dir>",
      "replay documents from a folder laid out per source (an archive or data/samples) instead of fetching",
    )
    .option("--source <slug>", `limit the run to a source (repeatable): ${SOURCE_SLUGS.join(", ")}`, collectSource)
    .addOption(
      new Option(
        "--due",
        `ask only for the figures of releases due now (scheduled, not yet in); nothing due: exit 0 at once. For a run every minute; with --source, only ${OBSERVATION_APIS.join(", ")}`,
      ).conflicts("fromArchive"),
    )
    .addOption(
      new Option(
        "--log-format <format>",
        "stderr as lines for people, or JSON lines for log collectors: a line per progress step, per source and per run (env SERVICE_LOG_FORMAT)",
      ).choices(INGEST_LOG_FORMATS),
    )
    .option(
      "--publish-to <url>",
      "then publish the index to object storage for `serve --index-from`: s3://bucket/prefix (env SERVICE_PUBLISH_URL)",
    )
    // Not for people: the server's operator route names the run it launches, so it can answer for it at once.
    .addOption(new Option("--run-id <id>", "the id to record the run under").argParser(runIdOf).hideHelp())
    .action(
      async (options: {
        dataDir?: string;
        registryDir?: string;
        fromArchive?: string;
        source?: string[];
        runId?: string;
        publishTo?: string;
        logFormat?: IngestLogFormat;
        due?: boolean;
      }) => {
        const config = serviceConfigFrom(env, options);
        const logFormat = ingestLogFormatFrom(env, options.logFormat);
        const publishTo = publishTargetFrom(env, options.publishTo);
        if (!config.durableStorage)
          throw new InvalidArgumentError("ingestion needs a durable store: SERVICE_STORAGE is false");
        // An empty value (`--from-archive "$UNSET"`) must not fall through to a live fetch from the publishers.
        const fromArchive = nonEmptyFlag(options.fromArchive, "--from-archive");
        if (fromArchive !== undefined && !(existsSync(fromArchive) && statSync(fromArchive).isDirectory())) {
          throw new InvalidArgumentError(`--from-archive ${fromArchive} is not a folder`);
        }
        if (options.due) requireObservationSources(options.source);
        const http = ingestHttpFrom(env);
        const clock = ingestClockFrom(env);
        const registryDir = registryDirFrom(env, options.registryDir);
        if (options.due) {
          // Before anything heavy is loaded: a run every minute mostly has nothing to do.
          const { nothingDueNow } = await import("../ingest/due/due-run.ts");
          const nothing = nothingDueNow(config.dataDir, registryDir, clock(), env, options.source ?? null);
          if (nothing !== null) return await endQuietly(nothing, logFormat, config.logLevel);
        }
        // Loaded here, not at start-up, so `--help` and the other commands do not load the ingestion machinery.
        const { readRegistrySources } = await import("../registry/build-registry.ts");
        const { acquireIngestionLock, requireIngestionLock } = await import("../ingest/run-lock.ts");
        const { runIngestion } = await import("../ingest/run-ingestion.ts");
        const { lockHeldLine, planRun } = await import("../ingest/due/due-run.ts");
        const registry = readRegistrySources(new Date(clock()), registryDir);
        // A due run that finds another run holding the lock is not a failure: the next minute's run asks again.
        const release = options.due ? acquireIngestionLock(config.dataDir) : requireIngestionLock(config.dataDir);
        if (!release) return await endQuietly(lockHeldLine(config.dataDir), logFormat, config.logLevel);
        try {
          const only = options.source ?? null;
          const plan =
            fromArchive === undefined
              ? planRun(config.dataDir, registry, clock(), env, { due: !!options.due, only })
              : null;
          if (plan?.kind === "nothing") return await endQuietly(plan.line, logFormat, config.logLevel);
          // The registry goes out with the run's index, and not at all when the run publishes none (publish-index.ts).
          const logger = logFormat === "json" ? await jsonLogger(config.logLevel ?? "info") : null;
          const summary = await runIngestion({
            dataDir: config.dataDir,
            registry,
            mode:
              fromArchive !== undefined
                ? { kind: "archive", dir: resolve(fromArchive), maxBytes: http.maxBytes }
                : {
                    kind: "fetch",
                    hosts: upstreamHostsFrom(config.upstreams),
                    blsApiKey: blsApiKeyFrom(env),
                    http,
                  },
            only: plan?.only ?? only,
            requestRegistry: plan?.requestRegistry,
            watch: plan?.watch,
            // A due run that brought nothing new rebuilds no index (it runs every minute): only a check that turned is
            // published, with the index's data as it was.
            publishOnlyChanges: !!options.due,
            now: clock,
            progress: logger ? (line) => logger.info(line) : (line) => process.stderr.write(`${line}\n`),
            runId: options.runId,
          });
          if (logger) logRunSummary(logger, summary);
          process.stdout.write(summaryText(summary));
          if (summary.releases)
            process.stdout.write((await import("../ingest/due/found-releases.ts")).watchLines(summary.releases));
          // A run that published only its checks made a new generation as well: readers take it up like any other. One
          // that published nothing uploads the local generation if the store names another (an earlier upload failed).
          if (publishTo) {
            const { publishToObjectStore } = await import("../publish/publish-generation.ts");
            const unlessStored = !(summary.published || summary.checksPublished);
            const published = await publishToObjectStore(publishTo, config.dataDir, new Date(clock()), {
              unlessStored,
            });
            if (published)
              process.stdout.write(`generation ${published.manifest.publishedAt} published to ${published.url}\n`);
          }
          if (summary.outcome !== "succeeded") process.exitCode = EXIT_CODES.failure;
        } finally {
          release();
        }
      },
    );
}

/** The one line of a due run that asks nothing, written as the run's other lines are (a JSON line for log collectors). */
async function endQuietly(line: string, format: IngestLogFormat, level: LogLevel | undefined): Promise<void> {
  if (format === "json") (await jsonLogger(level ?? "info")).info(line);
  else process.stderr.write(`${line}\n`);
}

/** The structured log on stderr, written as each line comes (a CLI run is short and must lose nothing when it ends). */
async function jsonLogger(level: LogLevel) {
  const [{ destination }, { createLogger, logProcessWarnings }] = await Promise.all([
    import("pino"),
    import("../../server/observability/logger.ts"),
  ]);
  const logger = createLogger(level, destination({ dest: 2, sync: true }));
  // Every line on stderr JSON: the AWS SDK's warning of `--publish-to` on Node 20 included.
  logProcessWarnings(logger);
  return logger;
}

function publicationText(summary: IngestSummary): string {
  return summary.published
    ? "index published"
    : summary.checksPublished
      ? "source checks published"
      : "nothing published";
}

function summaryText(summary: IngestSummary): string {
  const { totals } = summary;
  const failed = summary.sources.filter((source) => !source.ok).map((source) => source.source);
  return [
    `run ${summary.runId}: ${summary.outcome}, ${publicationText(summary)}`,
    `documents ${totals.documents}, events new ${totals.eventsNew}, changed ${totals.eventsChanged}, cancelled ${totals.eventsCancelled}, vintages appended ${totals.vintagesAppended}, ${(summary.durationMs / 1000).toFixed(1)} s`,
    ...(failed.length ? [`incomplete sources: ${failed.join(", ")}`] : []),
    ...skippedLines(summary.sources),
    "",
  ].join("\n");
}
