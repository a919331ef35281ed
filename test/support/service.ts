import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeKeyFile } from "../../cli/keys/key-file-writer.ts";
import { newKey } from "../../cli/keys/new-key.ts";
import { rebuildRegistry } from "../../cli/registry/build-registry.ts";
import type { IngestionLauncher } from "../../schemas/ingestion-runs.ts";
import type { Scope } from "../../schemas/vocabularies.ts";
import { createApp } from "../../server/app.ts";
import {
  type ClientLimits,
  DEFAULT_CLIENT_LIMITS,
  type RateLimitConfig,
  type ServiceConfig,
} from "../../server/config.ts";
import type { StoredKey } from "../../server/keys/api-keys.ts";
import { readKeyFile } from "../../server/keys/key-file.ts";
import { startServer } from "../../server/listen.ts";
import { createLogger } from "../../server/observability/logger.ts";
import { createMetrics } from "../../server/observability/metrics.ts";
import type { WeatherSettings } from "../../server/weather/weather-settings.ts";
import { assertContract, assertCsvContract } from "./contract.ts";

export interface FakeClock {
  now(): number;
  set(iso: string): void;
  advance(ms: number): void;
}

export function fakeClock(startIso = "2026-11-21T12:00:00Z"): FakeClock {
  let current = Date.parse(startIso);
  return {
    now: () => current,
    set: (iso) => {
      current = Date.parse(iso);
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

export interface RunningService {
  url: string;
  dataDir: string;
  config: ServiceConfig;
  clock: FakeClock;
  /** The messages the service logged at warn and above (internal errors, configuration problems). */
  logs: string[];
  /** Every structured log line, parsed (request lines included). */
  logEntries: Record<string, unknown>[];
  /** How many requests the Node listener answered without h3 (node-listener.ts). */
  edgeAnswers(): number;
  createKey(scopes: Scope[], options?: { environment?: string; revoked?: boolean }): string;
  /** fetch that also checks the body against the route's JSON Schema (every response the suite receives). */
  /** A CSV answer is checked against the route's CSV form and returned parsed as `csv`. */
  request(
    path: string,
    init?: RequestInit,
  ): Promise<{
    status: number;
    headers: Headers;
    body: any;
    text: string;
    csv?: { header: string[]; rows: string[][] };
  }>;
  close(): Promise<void>;
}

export interface ServiceOptions {
  environment?: string;
  durableStorage?: boolean;
  corsOrigins?: string[];
  trustedProxies?: string[];
  rateLimit?: Partial<RateLimitConfig>;
  /** A data directory to copy in (e.g. a prepared index); otherwise an empty one. */
  seedDataDir?: string;
  clock?: FakeClock;
  /** Base URL of a MET stand-in; weather is disabled (SOURCE_DISABLED) without it. */
  weatherBaseUrl?: string;
  /** The operator trigger's launcher, given the service's own data directory. */
  launchIngestion?: (dataDir: string) => IngestionLauncher;
  /** The listener's limits on its clients; the service's defaults for those not given. */
  clientLimits?: Partial<ClientLimits>;
  /** Weather settings beyond the stand-in's address (e.g. the cap on MET's Retry-After). */
  weather?: Partial<Pick<WeatherSettings, "maxRetryAfterMs">>;
}

/** The real app on a real port with a temporary data directory and a fake clock. */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const dataDir = mkdtempSync(join(tmpdir(), "service-test-"));
  if (options.seedDataDir) cpSync(options.seedDataDir, dataDir, { recursive: true });
  rebuildRegistry(dataDir);
  const clock = options.clock ?? fakeClock();
  const logs: string[] = [];
  const entries: Record<string, unknown>[] = [];
  const config: ServiceConfig = {
    environment: options.environment ?? "test",
    dataDir,
    keysFile: join(dataDir, "keys.json"),
    durableStorage: options.durableStorage ?? true,
    corsOrigins: options.corsOrigins ?? [],
    trustedProxies: options.trustedProxies ?? [],
    rateLimit: { windowSeconds: 60, publicPerWindow: 1000, credentialedPerWindow: 1000, ...options.rateLimit },
    upstreams: [],
    weather: {
      enabled: options.weatherBaseUrl !== undefined,
      baseUrl: options.weatherBaseUrl ?? "http://127.0.0.1:9",
      userAgent: "service-tests/1.0 (tests@example.com)",
      timeoutMs: 1000,
      maxBytes: 2_000_000,
      maxEntries: 100,
      ...options.weather,
    },
    clientLimits: { ...DEFAULT_CLIENT_LIMITS, ...options.clientLimits },
  };
  const launchIngestion = options.launchIngestion?.(dataDir);
  const metrics = createMetrics();
  const app = createApp({ config, clock, launchIngestion, logger: capturingLogger(logs, entries), metrics });
  // The Node listener asks `holds` last, only of a request it may take: a held URL is one it answers itself.
  let edgeAnswers = 0;
  const holds = app.pipeline.holds;
  app.pipeline.holds = (url) => {
    const held = holds(url);
    if (held) edgeAnswers += 1;
    return held;
  };
  const server = await startServer(app, { port: 0, hostname: "127.0.0.1", clientLimits: config.clientLimits, metrics });
  const url = server.url!.replace(/\/$/, "");

  return {
    url,
    dataDir,
    config,
    clock,
    logs,
    logEntries: entries,
    edgeAnswers: () => edgeAnswers,
    createKey(scopes, keyOptions = {}) {
      const { record, secret } = newKey({
        name: "test",
        environment: keyOptions.environment ?? config.environment,
        scopes,
        createdAt: new Date(clock.now()).toISOString(),
      });
      const stored: StoredKey = keyOptions.revoked
        ? { ...record, revokedAt: new Date(clock.now()).toISOString() }
        : record;
      writeKeyFile(config.keysFile, { keys: [...readKeyFile(config.keysFile).keys, stored] });
      return secret;
    },
    async request(path, init = {}) {
      const target = new URL(path, url);
      const response = await fetch(target, init).catch(
        (error: Error & { cause?: { code?: string; message?: string } }) => {
          // fetch says only "fetch failed": name the socket's own error, so that a failure says why.
          const cause = error.cause ? ` (${error.cause.code ?? "no code"}: ${error.cause.message ?? ""})` : "";
          throw new Error(`${init.method ?? "GET"} ${path}: ${error.message}${cause}`, { cause: error });
        },
      );
      const text = await response.text();
      const type = response.headers.get("content-type") ?? "";
      if (type.startsWith("text/csv") && response.status < 300) {
        const csv = text ? assertCsvContract(init.method ?? "GET", target, text) : undefined;
        return { status: response.status, headers: response.headers, body: null, text, csv };
      }
      const body = text && type.includes("application/json") ? JSON.parse(text) : null;
      if (text) assertContract(init.method ?? "GET", target, response.status, body);
      return { status: response.status, headers: response.headers, body, text };
    },
    async close() {
      await server.close(true);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A real pino logger whose lines land in the test's lists instead of stderr. */
function capturingLogger(messages: string[], entries: Record<string, unknown>[]) {
  return createLogger("info", {
    write(line: string) {
      const entry = JSON.parse(line) as Record<string, unknown>;
      entries.push(entry);
      if (entry.level !== "info" && entry.level !== "debug") messages.push(String(entry.msg));
    },
  });
}
