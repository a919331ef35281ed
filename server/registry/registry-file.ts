import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_FILES } from "../../schemas/data-files.ts";
import type { BuiltRegistry } from "../../schemas/registry.ts";
import { assertBuiltRegistry } from "../../schemas/registry-schema.ts";
import { createReloadingFile } from "../files/reloading-file.ts";
import { ApiError } from "../http/api-error.ts";
import type { Logger } from "../observability/logger.ts";

/**
 * The registry JSON the CLI publishes, re-read whenever a new one is. Null when none is built or the file is not a
 * registry: a deployment fault (CONFIGURATION_ERROR, not ready), said once to the operator per published file. The
 * shape is checked here, once per file, so the request path trusts it.
 */
export function createRegistrySource(dataDir: string, logger?: Logger): () => BuiltRegistry | null {
  const readServable = (path: string) => {
    try {
      return readRegistryFile(path);
    } catch (error) {
      logger?.warn(
        `registry ${path} could not be read (${(error as Error).message}): the registry's routes are not served until \`service registry\` publishes it again`,
      );
      return null;
    }
  };
  return createReloadingFile<BuiltRegistry | null>(join(dataDir, DATA_FILES.registry), readServable, () => null);
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
