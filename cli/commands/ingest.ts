import { InvalidArgumentError, Option, type Command } from "commander";
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { UpstreamConfig } from "../../server/config.ts";
import { ingestHttpFrom, publishTargetFrom, registryDirFrom, serviceConfigFrom } from "../config.ts";
import { RUN_ID_PATTERN } from "../../schemas/ingestion-runs.ts";
import { CALENDAR_SOURCES, NEWS_FEEDS, OBSERVATION_APIS } from "../../schemas/vocabularies.ts";
import type { IngestSummary } from "../ingest/run-ingestion.ts";
import { skippedLines } from "../ingest/skipped-summary.ts";
import type { UpstreamHosts } from "../ingest/sources.ts";
import { EXIT_CODES } from "../usage.ts";

/** Every source a run can be limited to, in the order a run takes them (cli/ingest/sources.ts). */
const SOURCE_SLUGS = [...CALENDAR_SOURCES, ...OBSERVATION_APIS, ...NEWS_FEEDS];

function collectSource(value: string, previous: string[] = []): string[] {
  if (!(SOURCE_SLUGS as string[]).includes(value)) throw new InvalidArgumentError(`source must be one of ${SOURCE_SLUGS.join(", ")}`);
  return [...previous, value];
}

function runIdOf(value: string): string {
  if (!RUN_ID_PATTERN.test(value)) throw new InvalidArgumentError("run id must look like run_20261121T120000_a1b2c3");
  return value;
}

/** The publishers' hosts of this deployment, by the upstream ids the sources name. */
function hostsFrom(upstreams: UpstreamConfig[]): UpstreamHosts {
  return Object.fromEntries(upstreams.filter((upstream) => upstream.domain === "economics").map((upstream) => [upstream.id, upstream.baseUrl])) as UpstreamHosts;
}

export function registerIngestCommand(program: Command, env: NodeJS.ProcessEnv): void {
  program
    .command("ingest")
    .description("Fetch publisher calendars and values into the store, then publish the index the server reads")
    .option("--data-dir <dir>", "data directory (env SERVICE_DATA_DIR, default ./var)")
    .option("--registry-dir <dir>", "folder of registry sources (env SERVICE_REGISTRY_DIR, default data/registry)")
    .option("--from-archive <dir>", "replay documents from a folder laid out per source (an archive or data/samples) instead of fetching")
    .option("--source <slug>", `limit the run to a source (repeatable): ${SOURCE_SLUGS.join(", ")}`, collectSource)
    .option("--publish-to <url>", "then publish the index to object storage for `serve --index-from`: s3://bucket/prefix (env SERVICE_PUBLISH_URL)")
    // Not for people: the server's operator route names the run it launches, so it can answer for it at once.
    .addOption(new Option("--run-id <id>", "the id to record the run under").argParser(runIdOf).hideHelp())
    .action(async (options: { dataDir?: string; registryDir?: string; fromArchive?: string; source?: string[]; runId?: string; publishTo?: string }) => {
      const config = serviceConfigFrom(env, options);
      const publishTo = publishTargetFrom(env, options.publishTo);
      if (!config.storageEnabled) throw new InvalidArgumentError("ingestion needs a durable store: SERVICE_STORAGE is false");
      if (options.fromArchive && !(existsSync(options.fromArchive) && statSync(options.fromArchive).isDirectory())) {
        throw new InvalidArgumentError(`--from-archive ${options.fromArchive} is not a folder`);
      }
      const http = ingestHttpFrom(env);
      // Loaded here, not at start-up, so `--help` and the other commands do not load the ingestion machinery.
      const { publishRegistry, readRegistrySources } = await import("../registry/build-registry.ts");
      const { acquireIngestionLock } = await import("../ingest/run-lock.ts");
      const { runIngestion } = await import("../ingest/run-ingestion.ts");
      const registry = readRegistrySources(new Date(), registryDirFrom(env, options.registryDir));
      publishRegistry(registry, config.dataDir);
      const release = acquireIngestionLock(config.dataDir);
      if (!release) throw new Error("another ingestion run is in progress for this data directory");
      try {
        const summary = await runIngestion({
          dataDir: config.dataDir,
          registry,
          mode: options.fromArchive
            ? { kind: "archive", dir: resolve(options.fromArchive) }
            : { kind: "fetch", hosts: hostsFrom(config.upstreams), blsApiKey: env.SERVICE_BLS_API_KEY || null, http },
          only: options.source ?? null,
          now: () => Date.now(),
          progress: (line) => process.stderr.write(`${line}\n`),
          runId: options.runId,
        });
        process.stdout.write(summaryText(summary));
        if (publishTo && summary.published) {
          const { publishToObjectStore } = await import("../publish/publish-generation.ts");
          const { manifest, url } = await publishToObjectStore(publishTo, config.dataDir, new Date());
          process.stdout.write(`generation ${manifest.generation} published to ${url}\n`);
        }
        if (summary.outcome !== "succeeded") process.exitCode = EXIT_CODES.failure;
      } finally {
        release();
      }
    });
}

function summaryText(summary: IngestSummary): string {
  const { totals } = summary;
  const failed = summary.sources.filter((source) => !source.ok).map((source) => source.source);
  return [
    `run ${summary.runId}: ${summary.outcome}${summary.published ? ", index published" : ", nothing published"}`,
    `documents ${totals.documents}, events new ${totals.eventsNew}, changed ${totals.eventsChanged}, cancelled ${totals.eventsCancelled}, vintages appended ${totals.vintagesAppended}, ${(summary.durationMs / 1000).toFixed(1)} s`,
    ...(failed.length ? [`incomplete sources: ${failed.join(", ")}`] : []),
    ...skippedLines(summary.sources),
    "",
  ].join("\n");
}
