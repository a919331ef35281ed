import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { DATA_FILES } from "../../schemas/data-files.ts";
import { PLACES_INDEX_VERSION } from "../../schemas/places-ddl.ts";
import { packagePath } from "../package-paths.ts";
import { buildPlacesIndex, type City } from "./build-places-index.ts";

/** Whether a data directory's gazetteer can be served as it is: `outdated` is a file of another format (no time zones). */
type PlacesIndexState = "missing" | "outdated" | "current";

export function placesIndexState(dataDir: string): PlacesIndexState {
  const path = join(dataDir, DATA_FILES.places);
  if (!existsSync(path)) return "missing";
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return db.pragma("user_version", { simple: true }) === PLACES_INDEX_VERSION ? "current" : "outdated";
    } finally {
      db.close();
    }
  } catch {
    return "outdated";
  }
}

/**
 * Place search out of the box: `service serve` builds the gazetteer where the data directory has none (or one of an
 * older format) before it listens, about a second for the whole package. Not done at install: the data directory is
 * chosen when the service runs. A failed build is reported and the service starts without place search (an empty
 * list, as the spec says for a deployment with no place provider); the failure is the operator's to fix.
 */
export function ensurePlacesIndex(
  dataDir: string,
  report: (line: string) => void,
  options: { cities?: City[]; build?: (dataDir: string) => { count: number } } = {},
): void {
  const state = placesIndexState(dataDir);
  if (state === "current") return;
  report(
    state === "missing"
      ? `no place search index in ${dataDir}: building it from the bundled GeoNames gazetteer`
      : `the place search index in ${dataDir} is of an older format: rebuilding it`,
  );
  const started = performance.now();
  try {
    const { count } = options.build ? options.build(dataDir) : buildPlacesIndex(dataDir, options);
    report(
      `place search index built: ${count} places with their time zones in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    report(
      `place search index could not be built (${reason}): place search answers an empty list until \`service places\` succeeds`,
    );
  }
}

/**
 * The build as `service places` in a process of its own, for the server: reading 135,000 cities grows a heap by
 * about 90 MB, which V8 keeps for the life of the process once grown; a child gives it all back when it exits.
 */
export function buildPlacesInChildProcess(dataDir: string): { count: number } {
  const child = spawnSync(process.execPath, [packagePath("cli/bin.js"), "places", "--data-dir", dataDir], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (child.status !== 0)
    throw new Error(
      child.stderr.trim().split("\n").pop() || `\`service places\` exited ${child.status ?? child.signal}`,
    );
  const db = new Database(join(dataDir, DATA_FILES.places), { readonly: true, fileMustExist: true });
  try {
    return { count: db.prepare("SELECT count(*) FROM places").pluck().get() as number };
  } finally {
    db.close();
  }
}
