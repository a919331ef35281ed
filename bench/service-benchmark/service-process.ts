import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SERVING_NODE_FLAGS, SERVING_NODE_OPTIONS } from "../serving-node-options.ts";
import { PACKAGE_ROOT } from "./cli-runner.ts";
import { stopChild } from "./worker-process.ts";

const BIN = fileURLToPath(new URL("../../cli/bin.js", import.meta.url));
/**
 * The largest limit the configuration accepts (1,000,000) over the shortest window (1 s): no load this machine can
 * generate meets it, and a met limit would turn the measurement into one of 429s.
 */
const RATE_LIMIT = {
  SERVICE_RATE_LIMIT_WINDOW_SECONDS: "1",
  SERVICE_RATE_LIMIT_PUBLIC: "1000000",
  SERVICE_RATE_LIMIT_CREDENTIALED: "1000000",
};
/** The stand-in is no MET: the service may ask it far more often than MET's 20 a second (never MET itself). */
export const STANDIN_REQUESTS_PER_SECOND = 500;

export interface ServiceProcess {
  url: string;
  pid: number;
  /** Resident memory of the service process now, from the kernel (VmRSS). */
  residentMb(): number;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  dataDir: string;
  environment: string;
  weatherBaseUrl: string;
  /** For a data set whose registry sources are not the package's own (SERVICE_REGISTRY_DIR). */
  registryDir?: string;
  startTimeoutMs?: number;
  /** V8's flags for node's command line; SERVING_NODE_FLAGS unless given (a comparison without them). */
  nodeFlags?: readonly string[];
  /** Further variables, applied last so they may override the ones above (the soak run's short time-out, small cache). */
  env?: Record<string, string>;
}

/** `service serve` as its own process on a free port of 127.0.0.1, returned once it answers HTTP. */
export async function startService(options: ServiceOptions): Promise<ServiceProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // Started as deploy/ starts it in production.
    NODE_OPTIONS: [process.env.NODE_OPTIONS, SERVING_NODE_OPTIONS].filter(Boolean).join(" "),
    SERVICE_ENV: options.environment,
    SERVICE_WEATHER_BASE_URL: options.weatherBaseUrl,
    SERVICE_WEATHER_USER_AGENT: "weather-economics-service-bench/0.1 (local benchmark, 127.0.0.1 only)",
    ...RATE_LIMIT,
    SERVICE_WEATHER_MAX_REQUESTS_PER_SECOND: String(STANDIN_REQUESTS_PER_SECOND),
    ...(options.registryDir ? { SERVICE_REGISTRY_DIR: options.registryDir } : {}),
    ...options.env,
  };
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeFlags ?? SERVING_NODE_FLAGS),
      BIN,
      "serve",
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      "--data-dir",
      options.dataDir,
    ],
    {
      cwd: PACKAGE_ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  // Request logs go to stderr; only the tail is kept, for the error message if start-up fails.
  let stderrTail = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderrTail = (stderrTail + chunk).slice(-4000)));

  const timeoutMs = options.startTimeoutMs ?? 30_000;
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    const timer = setTimeout(
      () => reject(new Error(`service did not start within ${timeoutMs} ms\n${stderrTail}`)),
      timeoutMs,
    );
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const listening = /listening on (http:\/\/[^\s/]+)/.exec(stdout);
      if (listening) {
        clearTimeout(timer);
        resolve(listening[1]!);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited ${code} before listening\n${stderrTail}`));
    });
  });
  await waitUntilAnswering(`${url}/api/public/v1/status`, timeoutMs);
  let stopping = false;
  // A service that dies under load would otherwise show only as refused connections in whatever ran next.
  child.on("exit", (code, signal) => {
    if (!stopping)
      process.stderr.write(
        `service (pid ${child.pid}) exited unexpectedly (${code ?? signal}); its last output:\n${stderrTail}\n`,
      );
  });

  return {
    url,
    pid: child.pid!,
    residentMb: () => residentMb(child.pid!),
    stop() {
      stopping = true;
      return stopChild(child);
    },
  };
}

async function waitUntilAnswering(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await (await fetch(url)).arrayBuffer();
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`service at ${url} did not answer within ${timeoutMs} ms: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function residentMb(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!line) throw new Error(`no VmRSS for process ${pid}`);
  return Number(line[1]) / 1024;
}
