import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { publishIndex } from "../../cli/ingest/index/publish-index.ts";
import { openStore } from "../../cli/ingest/ledger/store.ts";
import { readRegistrySources } from "../../cli/registry/build-registry.ts";
import { DATA_FILES } from "../../schemas/data-files.ts";

/** The real `service` executable, exactly what `npx service` runs. */
const BIN = fileURLToPath(new URL("../../cli/bin.js", import.meta.url));
const GNU_TIME = "/usr/bin/time";

export interface IngestionMeasurement {
  command: string;
  exitCode: number | null;
  seconds: number;
  /** Peak resident set of the ingest process (GNU time's %M), in kilobytes; null where GNU time is not installed. */
  maxRssKb: number | null;
  stdout: string;
}

/**
 * Runs `SERVICE_REGISTRY_DIR=<registryDir> service ingest --from-archive <archiveDir> --data-dir <dataDir>` as its own
 * process, as an operator would, and reports wall time and peak memory. Peak memory comes from GNU time because
 * a parent cannot read its child's maxRSS through Node.
 */
export function measureIngestion(options: {
  archiveDir: string;
  registryDir: string;
  dataDir: string;
}): IngestionMeasurement {
  const args = [BIN, "ingest", "--from-archive", options.archiveDir, "--data-dir", options.dataDir];
  const timed = existsSync(GNU_TIME);
  const started = process.hrtime.bigint();
  const result = timed
    ? spawnSync(GNU_TIME, ["-f", "maxrss-kb %M", process.execPath, ...args], {
        env: { ...process.env, SERVICE_REGISTRY_DIR: options.registryDir },
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      })
    : spawnSync(process.execPath, args, {
        env: { ...process.env, SERVICE_REGISTRY_DIR: options.registryDir },
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const rss = /^maxrss-kb (\d+)$/m.exec(result.stderr ?? "");
  return {
    command: `SERVICE_REGISTRY_DIR=${options.registryDir} npx service ingest --from-archive ${options.archiveDir} --data-dir ${options.dataDir}`,
    exitCode: result.status,
    seconds,
    maxRssKb: rss ? Number(rss[1]) : null,
    stdout: result.stdout ?? "",
  };
}

/**
 * Times the index build alone (cli/ingest/index/publish-index.ts) from the store an ingestion left in `dataDir`, in this
 * process: the step a run ends with, measured apart from parsing and applying documents.
 */
export async function measureIndexPublication(options: {
  registryDir: string;
  dataDir: string;
}): Promise<{ seconds: number; heapUsedMb: number }> {
  const registry = readRegistrySources(new Date(), options.registryDir);
  const store = openStore(join(options.dataDir, DATA_FILES.store));
  try {
    const at = new Date().toISOString();
    const started = process.hrtime.bigint();
    await publishIndex(store, registry, options.dataDir, {
      publishedAt: at,
      lastIngestedAt: at,
      lastSuccessfulIngestionAt: at,
    });
    return {
      seconds: Number(process.hrtime.bigint() - started) / 1e9,
      heapUsedMb: Math.round(process.memoryUsage().heapUsed / 1e6),
    };
  } finally {
    store.close();
  }
}
