import type { Registry } from "../../../schemas/registry.ts";
import type { Env } from "../../env-values.ts";
import { ingestionLockHolder } from "../run-lock.ts";
import {
  askable,
  type DueCatalogue,
  type DueRelease,
  type DueState,
  dueState,
  readDueCatalogue,
} from "./due-releases.ts";
import { dueDeadlineMsFrom } from "./due-settings.ts";

/**
 * How `service ingest` uses the due rule (due-releases.ts). A `--due` run first looks, before loading anything else,
 * whether anything is due; under the lock it looks again (a run that held it may have brought the figures) and asks
 * only the due releases' series, of the sources that have not asked to wait. A full run watches the releases due when
 * it starts, so that both kinds of run record when they found a release's figures.
 */

type RunPlan =
  | { kind: "nothing"; line: string }
  | { kind: "run"; only: string[] | null; requestRegistry?: Registry; watch: DueRelease[] };

function dueOf(dataDir: string, catalogue: DueCatalogue, nowMs: number, env: Env, only: string[] | null) {
  return dueState(dataDir, catalogue, { nowMs, deadlineMs: dueDeadlineMsFrom(env), sources: only });
}

/** The line a `--due` run ends with when nothing is due, else null: read from the registry's sources as plain JSON. */
export function nothingDueNow(
  dataDir: string,
  registryDir: string,
  nowMs: number,
  env: Env,
  only: string[] | null,
): string | null {
  const state = dueOf(dataDir, readDueCatalogue(registryDir), nowMs, env, only);
  return state.due.length === 0 ? nothingDueLine(state) : null;
}

/** What a live run does about due releases, decided under the lock. */
export function planRun(
  dataDir: string,
  registry: Registry,
  nowMs: number,
  env: Env,
  options: { due: boolean; only: string[] | null },
): RunPlan {
  const state = dueOf(dataDir, registry, nowMs, env, options.only);
  if (!options.due) {
    const sources = options.only;
    // A full run asks every source, even one that asked due runs to wait: it watches every due release it asks for.
    const watch = [...state.due, ...state.held].filter(
      (release) => sources === null || release.sources.every((source) => sources.includes(source)),
    );
    return { kind: "run", only: options.only, watch };
  }
  const { due } = state;
  if (due.length === 0) return { kind: "nothing", line: nothingDueLine(state) };
  const sources = [...new Set(due.flatMap((release) => askable(release, options.only, state.waits)))];
  return { kind: "run", only: sources, requestRegistry: dueRequestRegistry(registry, due), watch: due };
}

/** The one line a run with nothing due writes on stderr. */
export function nothingDueLine(state: DueState): string {
  if (!state.hasCalendar) return "nothing due: the store holds no calendar yet (a full `service ingest` reads it)";
  const held = state.held[0];
  if (held) {
    const asked = held.sources
      .filter((source) => state.waits.has(source))
      .map((source) => `${source} asked to wait until ${state.waits.get(source)}`);
    return `nothing asked: ${held.release} is due but ${asked.join(", ")} (Retry-After); it stays due until ${held.dueUntil}`;
  }
  const next = state.next;
  if (!next) return "nothing due: the calendar holds no later release whose figures the service fetches";
  const dateOnly =
    next.customaryHour === null
      ? ""
      : `, dated ${next.scheduledDate} with no time: asked for from the customary ${next.customaryHour}`;
  return `nothing due until ${next.dueFrom}, ${next.release} (${next.title}${dateOnly})`;
}

/** The registry a due run asks with: only the series of the due releases (the index is still built from all). */
function dueRequestRegistry<R extends Registry>(registry: R, due: readonly DueRelease[]): R {
  const wanted = new Set(due.flatMap((release) => release.seriesSlugs));
  return { ...registry, series: registry.series.filter((series) => wanted.has(series.slug)) };
}

/** What a `--due` run that finds the lock held says before it exits 0: the next minute's run tries again. */
export function lockHeldLine(dataDir: string): string {
  const holder = ingestionLockHolder(dataDir);
  return `another ingestion run${holder === null ? "" : ` (pid ${holder})`} is in progress for this data directory; the due releases are asked for by the next run`;
}
