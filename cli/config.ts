import type { ObjectStoreLocation } from "../schemas/index-manifest.ts";
import type { IndexFollowingConfig, RateLimitConfig, ServiceConfig, UpstreamConfig } from "../server/config.ts";
import { DEFAULT_ANSWER_CACHE_BYTES } from "../server/http/answer-cache.ts";
import { normalised } from "../server/http/client-address.ts";
import { DEFAULT_COMPRESSED_HEAD_BYTES } from "../server/http/compression.ts";
import { LOG_LEVELS, type LogLevel } from "../server/observability/log-levels.ts";
import { booleanVariable, ConfigError, type Env, integerVariable, nonEmptyFlag } from "./env-values.ts";
import { dataDirFrom, keysFileFrom } from "./file-locations.ts";
import type { NamedListener } from "./listen-failure.ts";
import { clientLimitsFrom, weatherFrom } from "./serving-config.ts";

/**
 * The environment as the commands read it: a `SERVICE_*` variable that is blank (empty or only spaces, often a
 * template or shell variable left unset) counts as unset, so its default applies rather than a folder named " ".
 */
export function serviceEnvironment(env: Env): Env {
  return Object.fromEntries(
    Object.entries(env).filter(([name, value]) => !(name.startsWith("SERVICE_") && (value ?? "").trim() === "")),
  );
}

/** Publishers' real hosts; each can be replaced (scheme and host only) by one variable, so a stand-in can answer. */
export const UPSTREAM_VARIABLES = [
  {
    id: "met-norway-locationforecast",
    domain: "weather",
    variable: "SERVICE_WEATHER_BASE_URL",
    publisher: "https://api.met.no",
  },
  { id: "bls-www", domain: "economics", variable: "SERVICE_BLS_URL", publisher: "https://www.bls.gov" },
  { id: "bls-api", domain: "economics", variable: "SERVICE_BLS_API_URL", publisher: "https://api.bls.gov" },
  { id: "eurostat", domain: "economics", variable: "SERVICE_EUROSTAT_URL", publisher: "https://ec.europa.eu" },
  { id: "ecb-www", domain: "economics", variable: "SERVICE_ECB_URL", publisher: "https://www.ecb.europa.eu" },
  {
    id: "ecb-data",
    domain: "economics",
    variable: "SERVICE_ECB_DATA_URL",
    publisher: "https://data-api.ecb.europa.eu",
  },
] as const;

/**
 * What is wrong when weather is on and SERVICE_WEATHER_USER_AGENT is not set (null when it is, or weather is off):
 * MET Norway's terms require a user agent naming the application and a contact, and MET blocks the ones that do not.
 * `serve` refuses to start with it in production and logs it as a warning elsewhere.
 */
export function defaultWeatherUserAgentProblem(env: Env, config: Pick<ServiceConfig, "weather">): string | null {
  if (!config.weather.enabled || env.SERVICE_WEATHER_USER_AGENT) return null;
  return (
    "SERVICE_WEATHER_USER_AGENT is not set: MET Norway blocks clients that do not name themselves and a contact; " +
    'set it to your product and contact, e.g. SERVICE_WEATHER_USER_AGENT="acme-weather/1.0 ops@acme.example"'
  );
}

export function environmentFrom(env: Env, flag?: string): string {
  const value = nonEmptyFlag(flag, "--env") ?? (env.SERVICE_ENV || "development");
  if (!/^[a-z0-9][a-z0-9-]{0,39}$/.test(value)) {
    throw new ConfigError(
      `${flag !== undefined ? "--env" : "SERVICE_ENV"} must be lower-case letters, digits and hyphens (e.g. production)`,
    );
  }
  return value;
}

export function serviceConfigFrom(
  env: Env,
  flags: { dataDir?: string; storage?: boolean; env?: string },
): ServiceConfig {
  const dataDir = dataDirFrom(env, flags.dataDir);
  const upstreams = upstreamsFrom(env);
  return {
    environment: environmentFrom(env, flags.env),
    dataDir,
    keysFile: keysFileFrom(env, dataDir),
    durableStorage: flags.storage !== false && booleanVariable(env, "SERVICE_STORAGE", true),
    corsOrigins: corsOriginsFrom(env.SERVICE_CORS_ORIGINS),
    trustedProxies: trustedProxiesFrom(env.SERVICE_TRUSTED_PROXIES),
    logLevel: logLevelFrom(env.SERVICE_LOG_LEVEL),
    ...(env.SERVICE_SHUTDOWN_GRACE_SECONDS
      ? {
          shutdownGraceMs:
            integerVariable(env.SERVICE_SHUTDOWN_GRACE_SECONDS, "SERVICE_SHUTDOWN_GRACE_SECONDS", 15, 1, 3600) * 1000,
        }
      : {}),
    rateLimit: rateLimitFrom(env),
    upstreams,
    weather: weatherFrom(env, upstreams),
    answerCacheBytes:
      integerVariable(
        env.SERVICE_ANSWER_CACHE_MB,
        "SERVICE_ANSWER_CACHE_MB",
        DEFAULT_ANSWER_CACHE_BYTES / MEGABYTE,
        0,
        65_536,
      ) * MEGABYTE,
    compressedHeadBytes:
      integerVariable(
        env.SERVICE_COMPRESSED_CACHE_MB,
        "SERVICE_COMPRESSED_CACHE_MB",
        DEFAULT_COMPRESSED_HEAD_BYTES / MEGABYTE,
        0,
        65_536,
      ) * MEGABYTE,
    ...metricsListenerFrom(env),
    clientLimits: clientLimitsFrom(env),
  };
}

const MEGABYTE = 1024 * 1024;

/**
 * The API's address, with the setting each part came from: a listener that cannot start names the one the operator
 * used (SERVICE_PORT in a unit file is not fixed with --port); a default is changed with the flag.
 */
export function serveOptionsFrom(env: Env, flags: { port?: string; host?: string }): NamedListener {
  const portSetting = flags.port === undefined && env.SERVICE_PORT ? "SERVICE_PORT" : "--port";
  const hostSetting = flags.host === undefined && env.SERVICE_HOST ? "SERVICE_HOST" : "--host";
  const port = integerVariable(nonEmptyFlag(flags.port, "--port") ?? env.SERVICE_PORT, portSetting, 3000, 0, 65535);
  const host = nonEmptyFlag(flags.host, "--host") ?? (env.SERVICE_HOST || "127.0.0.1");
  if (host.trim() === "") throw new ConfigError("SERVICE_HOST must not be empty");
  return { port, host, portSetting, hostSetting };
}

/** Where `service ingest` publishes each generation for other machines (`--publish-to`, SERVICE_PUBLISH_URL); null for none. */
export function publishTargetFrom(env: Env, flag?: string): ObjectStoreLocation | null {
  if (nonEmptyFlag(flag, "--publish-to") !== undefined) return objectStoreLocationFrom(env, flag!, "--publish-to");
  return env.SERVICE_PUBLISH_URL ? objectStoreLocationFrom(env, env.SERVICE_PUBLISH_URL, "SERVICE_PUBLISH_URL") : null;
}

/** Where `service serve` takes its index from instead of a local ingestion (`--index-from`, SERVICE_INDEX_FROM_URL); null for none. */
export function indexFollowingFrom(env: Env, flag?: string): IndexFollowingConfig | null {
  const source =
    nonEmptyFlag(flag, "--index-from") !== undefined
      ? objectStoreLocationFrom(env, flag!, "--index-from")
      : env.SERVICE_INDEX_FROM_URL
        ? objectStoreLocationFrom(env, env.SERVICE_INDEX_FROM_URL, "SERVICE_INDEX_FROM_URL")
        : null;
  if (!source) return null;
  return {
    source,
    pollIntervalMs: integerVariable(env.SERVICE_INDEX_POLL_SECONDS, "SERVICE_INDEX_POLL_SECONDS", 30, 1, 3600) * 1000,
  };
}

/** `s3://bucket/prefix`: a bucket name as S3 allows it, and a prefix of plain path segments (no trailing slash kept). */
function objectStoreLocationFrom(env: Env, raw: string, name: string): ObjectStoreLocation {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(raw);
  const prefix = (match?.[2] ?? "").replace(/\/+$/, "");
  if (
    !match ||
    (prefix !== "" && prefix.split("/").some((segment) => segment === "" || segment === "." || segment === ".."))
  ) {
    throw new ConfigError(
      `${name} must be s3://bucket/prefix (a bucket of 3 to 63 lower-case letters, digits, dots and hyphens; a prefix of path segments)`,
    );
  }
  // A store other than AWS is named by the SDK's endpoint variables: it gets what S3-compatible stores need by itself
  // (path-style requests, checksums only where required), unless the operator's own settings say otherwise.
  const otherStore = Boolean(env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL);
  return {
    bucket: match[1]!,
    prefix,
    pathStyle: booleanVariable(env, "SERVICE_OBJECT_STORE_PATH_STYLE", otherStore),
    checksumsWhenRequired: {
      request: otherStore && !env.AWS_REQUEST_CHECKSUM_CALCULATION,
      response: otherStore && !env.AWS_RESPONSE_CHECKSUM_VALIDATION,
    },
  };
}

/** The separate metrics listener, only when SERVICE_METRICS_PORT names a port (0 picks a free one). */
function metricsListenerFrom(env: Env): Pick<ServiceConfig, "metricsListener"> {
  if (!env.SERVICE_METRICS_PORT) return {};
  const port = integerVariable(env.SERVICE_METRICS_PORT, "SERVICE_METRICS_PORT", 0, 0, 65535);
  const host = env.SERVICE_METRICS_HOST || "127.0.0.1";
  if (host.trim() === "") throw new ConfigError("SERVICE_METRICS_HOST must not be empty");
  return { metricsListener: { port, host } };
}

function logLevelFrom(raw: string | undefined): LogLevel {
  if (raw === undefined || raw === "") return "info";
  if (!(LOG_LEVELS as readonly string[]).includes(raw))
    throw new ConfigError(`SERVICE_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}`);
  return raw as LogLevel;
}

function trustedProxiesFrom(raw: string | undefined): string[] {
  const entries = (raw ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const addresses = entries.map((entry) => normalised(entry));
  if (addresses.some((address) => address === undefined)) {
    throw new ConfigError("SERVICE_TRUSTED_PROXIES must be a comma list of IP addresses such as 10.0.0.5,::1");
  }
  return addresses as string[];
}

function corsOriginsFrom(raw: string | undefined): string[] {
  const origins = (raw ?? "")
    .split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = null;
    }
    if (!parsed || parsed.origin !== origin) {
      throw new ConfigError(
        "SERVICE_CORS_ORIGINS must be a comma list of origins such as https://app.example.com (scheme, host, optional port; no path, no *)",
      );
    }
  }
  return origins;
}

function rateLimitFrom(env: Env): RateLimitConfig {
  return {
    windowSeconds: integerVariable(
      env.SERVICE_RATE_LIMIT_WINDOW_SECONDS,
      "SERVICE_RATE_LIMIT_WINDOW_SECONDS",
      60,
      1,
      86400,
    ),
    publicPerWindow: integerVariable(env.SERVICE_RATE_LIMIT_PUBLIC, "SERVICE_RATE_LIMIT_PUBLIC", 120, 1, 1_000_000),
    credentialedPerWindow: integerVariable(
      env.SERVICE_RATE_LIMIT_CREDENTIALED,
      "SERVICE_RATE_LIMIT_CREDENTIALED",
      600,
      1,
      1_000_000,
    ),
  };
}

function upstreamsFrom(env: Env): UpstreamConfig[] {
  return UPSTREAM_VARIABLES.map((upstream) => ({
    id: upstream.id,
    domain: upstream.domain,
    baseUrl: baseUrlVariable(env[upstream.variable], upstream.variable, upstream.publisher),
    publisherBaseUrl: upstream.publisher,
    enabled: upstream.domain !== "weather" || booleanVariable(env, "SERVICE_WEATHER_ENABLED", true),
  }));
}

/** Only scheme, host and port are taken: the path and query stay the publisher's own. */
function baseUrlVariable(raw: string | undefined, name: string, fallback: string): string {
  if (raw === undefined || raw === "") return fallback;
  try {
    const url = new URL(raw);
    if ((url.protocol === "http:" || url.protocol === "https:") && url.pathname === "/" && !url.search && !url.username)
      return url.origin;
  } catch {
    // reported below
  }
  throw new ConfigError(
    `${name} must be an http(s) origin such as http://127.0.0.1:8080 (no path, query or credentials)`,
  );
}
