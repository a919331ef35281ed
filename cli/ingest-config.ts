// How `service ingest` reaches the publishers and reports: its settings from the environment (the rest: config.ts).
import { InvalidArgumentError } from "commander";
import { SERVICE_VERSION } from "../schemas/version.ts";
import type { UpstreamConfig } from "../server/config.ts";
import { type Env, integerVariable } from "./env-values.ts";
import { DEFAULT_INGEST_MAX_BYTES } from "./ingest/document-ceilings.ts";
import type { PoliteOptions } from "./ingest/fetch-document.ts";
import { INGEST_LOG_FORMATS, type IngestLogFormat } from "./ingest/run-log.ts";
import type { UpstreamHosts } from "./ingest/sources.ts";

const DEFAULT_INGEST_USER_AGENT = `weather-economics-service/${SERVICE_VERSION} (scheduled ingestion; set SERVICE_INGEST_USER_AGENT to include your contact)`;

/** How ingestion talks to publishers: identified, bounded and retried. */
export function ingestHttpFrom(env: Env): PoliteOptions {
  return {
    userAgent: env.SERVICE_INGEST_USER_AGENT || DEFAULT_INGEST_USER_AGENT,
    timeoutMs: integerVariable(env.SERVICE_INGEST_TIMEOUT_MS, "SERVICE_INGEST_TIMEOUT_MS", 30_000, 100, 600_000),
    maxBytes: integerVariable(
      env.SERVICE_INGEST_MAX_BYTES,
      "SERVICE_INGEST_MAX_BYTES",
      DEFAULT_INGEST_MAX_BYTES,
      1000,
      500_000_000,
    ),
    retries: integerVariable(env.SERVICE_INGEST_RETRIES, "SERVICE_INGEST_RETRIES", 2, 0, 10),
  };
}

/** SERVICE_BLS_API_KEY, the optional BLS API registration key (higher quotas). */
export function blsApiKeyFrom(env: Env): string | null {
  return env.SERVICE_BLS_API_KEY || null;
}

/** The publishers' hosts of this deployment, by the upstream ids the ingestion sources name. */
export function upstreamHostsFrom(upstreams: UpstreamConfig[]): UpstreamHosts {
  const baseUrl = (id: keyof UpstreamHosts): string => upstreams.find((upstream) => upstream.id === id)!.baseUrl;
  return {
    "bls-www": baseUrl("bls-www"),
    "bls-api": baseUrl("bls-api"),
    eurostat: baseUrl("eurostat"),
    "ecb-www": baseUrl("ecb-www"),
    "ecb-data": baseUrl("ecb-data"),
  };
}

/**
 * How `service ingest` reports on stderr (`--log-format`, SERVICE_LOG_FORMAT). A bad value is a usage error like a bad
 * flag value (InvalidArgumentError: `error: …` and the usage hint).
 */
export function ingestLogFormatFrom(env: Env, flag: IngestLogFormat | undefined): IngestLogFormat {
  const chosen = flag ?? (env.SERVICE_LOG_FORMAT || "text");
  if (!(INGEST_LOG_FORMATS as readonly string[]).includes(chosen))
    throw new InvalidArgumentError(`SERVICE_LOG_FORMAT must be one of ${INGEST_LOG_FORMATS.join(", ")}`);
  return chosen as IngestLogFormat;
}
