import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_FILES } from "../../schemas/data-files.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { createReloadingFile, PUBLISHED_FILE_RECHECK_MS } from "../files/reloading-file.ts";
import { ApiError } from "../http/api-error.ts";

/**
 * The registry JSON published by the CLI, re-read whenever a new one is published. Null when none has been built, or
 * when the file cannot be read as JSON (a deployment fault, answered CONFIGURATION_ERROR, never a crash per request).
 */
export function createRegistrySource(dataDir: string): () => BuiltRegistry | null {
  return createReloadingFile<BuiltRegistry | null>(
    join(dataDir, DATA_FILES.registry),
    readRegistryFile,
    () => null,
    { recheckAfterMs: PUBLISHED_FILE_RECHECK_MS },
  );
}

/** The registry for a request; a deployment that has not built one is misconfigured (`serve` builds it on start). */
export function requireRegistry(source: () => BuiltRegistry | null): BuiltRegistry {
  const built = source();
  if (!built) throw new ApiError("CONFIGURATION_ERROR", "The registry has not been built on this deployment.");
  return built;
}

function readRegistryFile(path: string): BuiltRegistry | null {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as BuiltRegistry;
  } catch {
    return null;
  }
}
