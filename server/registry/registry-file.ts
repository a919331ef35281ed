import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_FILES } from "../../schemas/data-files.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { assertBuiltRegistry } from "../../schemas/registry-schema.ts";
import { createReloadingFile, PUBLISHED_FILE_RECHECK_MS } from "../files/reloading-file.ts";
import { ApiError } from "../http/api-error.ts";
import type { Logger } from "../observability/logger.ts";

/**
 * The registry JSON published by the CLI, re-read whenever a new one is published. Null when none has been built, or
 * when the file cannot be read as the registry (not JSON, or JSON of another shape): a deployment fault, answered
 * CONFIGURATION_ERROR with readiness not ready, never a crash per request. The shape is checked here, once per
 * published file, so the request path trusts it.
 */
export function createRegistrySource(dataDir: string, logger?: Logger): () => BuiltRegistry | null {
  return createReloadingFile<BuiltRegistry | null>(
    join(dataDir, DATA_FILES.registry),
    (path) => readServableRegistry(path, logger),
    () => null,
    { recheckAfterMs: PUBLISHED_FILE_RECHECK_MS },
  );
}

/** The registry for a request; a deployment with none it can read is misconfigured (`serve` builds it on start). */
export function requireRegistry(source: () => BuiltRegistry | null): BuiltRegistry {
  const built = source();
  if (!built)
    throw new ApiError("CONFIGURATION_ERROR", "The registry on this deployment has not been built or cannot be read.");
  return built;
}

/** A published registry file, read and checked for its shape; throws with why it is not one. */
export function readRegistryFile(path: string): BuiltRegistry {
  return assertBuiltRegistry(JSON.parse(readFileSync(path, "utf8")));
}

/** Null for a file that is not a registry, said once to the operator (the file is read once per change, not per request). */
function readServableRegistry(path: string, logger: Logger | undefined): BuiltRegistry | null {
  try {
    return readRegistryFile(path);
  } catch (error) {
    logger?.warn(
      `registry ${path} could not be read (${(error as Error).message}): the registry's routes are not served until \`service registry\` publishes it again`,
    );
    return null;
  }
}
