// Where the commands read and write on disk: the data directory, the registry sources and the key file, each checked
// so that a bad path is a configuration error naming the setting it came from.
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { DATA_FILES } from "../schemas/data-files.ts";
import { ConfigError, type Env, nonEmptyFlag } from "./env-values.ts";
import { packagePath } from "./package-paths.ts";

/**
 * The data directory, resolved: `--data-dir`, else SERVICE_DATA_DIR (an empty one counts as unset, as every blank
 * SERVICE_* variable does: resolved as a path it would be the current directory), else `./var`. A file where the
 * folder is, or on its path, is a configuration error naming the setting it came from.
 */
export function dataDirFrom(env: Env, flag?: string): string {
  const dir = resolve(nonEmptyFlag(flag, "--data-dir") ?? (env.SERVICE_DATA_DIR || "./var"));
  const blocking = fileInPlaceOfFolder(dir);
  if (blocking !== null) {
    const name =
      flag !== undefined ? "--data-dir" : env.SERVICE_DATA_DIR ? "SERVICE_DATA_DIR" : "the default data directory";
    throw new ConfigError(
      `${name} ${dir} ${blocking === dir ? "is" : `cannot be created: ${blocking} is`} a file, not a folder`,
    );
  }
  return dir;
}

/**
 * The file standing where the folder `dir` or one of its parents would be, or null. A missing folder is created where
 * it is first written; a file in its place (or on its path) can never be.
 */
function fileInPlaceOfFolder(dir: string): string | null {
  let existing = dir;
  while (!existsSync(existing)) existing = dirname(existing);
  return statSync(existing).isDirectory() ? null : existing;
}

/** The curated registry sources shipped with the service. */
export const DEFAULT_REGISTRY_DIR = packagePath("data/registry");

/**
 * The folder of registry sources (`families.json`, `series.json`, `releases.json`) to validate and publish. The
 * shipped one unless the operator names another, e.g. the synthetic registry that goes with a benchmark archive.
 */
export function registryDirFrom(env: Env, flag?: string): string {
  const dir = resolve(nonEmptyFlag(flag, "--registry-dir") ?? (env.SERVICE_REGISTRY_DIR || DEFAULT_REGISTRY_DIR));
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new ConfigError(`${flag !== undefined ? "--registry-dir" : "SERVICE_REGISTRY_DIR"} ${dir} is not a folder`);
  }
  return dir;
}

/** The key file: SERVICE_KEYS_FILE, else `keys.json` in the data directory. */
export function keysFileFrom(env: Env, dataDir: string): string {
  return resolve(env.SERVICE_KEYS_FILE || join(dataDir, DATA_FILES.keys));
}

/**
 * The key file of a command that reads or writes it (`keys`, `serve`), checked: a path no file can be created at
 * (a file on the way to it, or a folder in its place) is a configuration error naming it. Commands that never touch
 * the key file (`ingest`, `query`, `openapi`) do not check it.
 */
export function usableKeysFile(env: Env, path: string): string {
  const name = env.SERVICE_KEYS_FILE ? "SERVICE_KEYS_FILE" : "the key file";
  const blocking = fileInPlaceOfFolder(dirname(path));
  if (blocking !== null)
    throw new ConfigError(`${name} ${path} cannot be created: ${blocking} is a file, not a folder`);
  if (existsSync(path) && statSync(path).isDirectory())
    throw new ConfigError(`${name} ${path} is a folder, not a file`);
  return path;
}
