import type { Registry } from "../../schemas/registry.ts";
import {
  type DueCatalogue,
  type DueRelease,
  dueRequestRegistry,
  dueSources,
  dueState,
  nothingDueLine,
  readDueCatalogue,
} from "./due-releases.ts";
import { dueDeadlineMsFrom } from "./due-settings.ts";
import { ingestionLockHolder } from "./run-lock.ts";

type Env = Record<string, string | undefined>;

/**
 * How `service ingest` uses the due rule (due-releases.ts). A `--due` run first looks, before loading anything else,
 * whether anything is due; under the lock it looks again (a run that held it may have brought the figures) and asks
 * only the due releases' series. A full run watches the releases due when it starts, so that both kinds of run
 * record when they found a release's figures.
 */

export type RunPlan =
  | { kind: "nothing"; line: string }
  | { kind: "run"; only: string[] | null; requestRegistry?: Registry; watch: DueRelease[] };

/** The due releases of the given sources (all when `only` is null) at `nowMs`, and the state they were read from. */
function dueOf(dataDir: string, catalogue: DueCatalogue, nowMs: number, env: Env, only: string[] | null) {
  const state = dueState(dataDir, catalogue, nowMs, dueDeadlineMsFrom(env));
  const within = (release: DueRelease) => only === null || release.sources.some((source) => only.includes(source));
  return { state, due: state.due.filter(within) };
}

/** The line a `--due` run ends with when nothing is due, else null: read from the registry's sources as plain JSON. */
export function nothingDueNow(
  dataDir: string,
  registryDir: string,
  nowMs: number,
  env: Env,
  only: string[] | null,
): string | null {
  const { state, due } = dueOf(dataDir, readDueCatalogue(registryDir), nowMs, env, only);
  return due.length === 0 ? nothingDueLine(state) : null;
}

/** What a live run does about due releases, decided under the lock. */
export function planRun(
  dataDir: string,
  registry: Registry,
  nowMs: number,
  env: Env,
  options: { due: boolean; only: string[] | null },
): RunPlan {
  const { state, due } = dueOf(dataDir, registry, nowMs, env, options.only);
  if (!options.due) {
    const sources = options.only;
    // A full run watches the due releases whose sources it asks.
    const watch =
      sources === null ? due : due.filter((release) => release.sources.every((source) => sources.includes(source)));
    return { kind: "run", only: options.only, watch };
  }
  if (due.length === 0) return { kind: "nothing", line: nothingDueLine(state) };
  const sources = dueSources(due).filter((source) => options.only === null || options.only.includes(source));
  return { kind: "run", only: sources, requestRegistry: dueRequestRegistry(registry, due), watch: due };
}

/** What a `--due` run that finds the lock held says before it exits 0: the next minute's run tries again. */
export function lockHeldLine(dataDir: string): string {
  const holder = ingestionLockHolder(dataDir);
  return `another ingestion run${holder === null ? "" : ` (pid ${holder})`} is in progress for this data directory; the due releases are asked for by the next run`;
}
