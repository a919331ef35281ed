import type Database from "better-sqlite3";
import { FOUND_RELEASES_DDL } from "../../../schemas/release-latency.ts";
import type { DueRelease } from "./due-releases.ts";
import { figuresInOf } from "./release-figures-in.ts";

/** A watched release whose figures a run found: when, and how long after its scheduled instant. */
interface FoundRelease {
  eventId: string;
  release: string;
  /** The observation API of its first series. */
  source: string;
  scheduledAt: string | null;
  dueFrom: string;
  /** When the document that brought the figures was fetched (the first value evidence of the event). */
  foundAt: string;
  /** Seconds from `scheduledAt` to `foundAt`; null for a date-only event, which has no scheduled instant. */
  latencySeconds: number | null;
}

/** A release whose series are derived from inputs alone (release-figures-in.ts), closed by reading them once it was due. */
interface ClosedRelease {
  eventId: string;
  release: string;
  dueFrom: string;
  /** The fetch that brought the last of its inputs. */
  inputsReadAt: string;
}

/**
 * What a run made of the releases due when it started: those whose figures it found, those it closed by reading their
 * inputs, those still awaited.
 */
export interface ReleaseWatch {
  found: FoundRelease[];
  closed: ClosedRelease[];
  pending: { eventId: string; release: string; scheduledAt: string | null; dueFrom: string; dueUntil: string }[];
}

/**
 * Which of the releases due at the start of a run have their figures now, recorded in the ledger's `found_releases`
 * (once per event: the first run to find it); a release closed by its inputs is no figure found, and is not recorded
 * there. Called in the run's last moments, on its own store connection. A ledger that cannot record them (a full disk)
 * costs the run nothing: it says so, and the summary has no releases.
 */
export function watchedReleases(
  db: Database.Database,
  watched: readonly DueRelease[],
  runId: string,
  progress: (line: string) => void,
): ReleaseWatch | undefined {
  try {
    return recordedWatch(db, watched, runId);
  } catch (error) {
    progress(`the releases found could not be recorded: ${(error as Error).message}`);
    return undefined;
  }
}

function recordedWatch(db: Database.Database, watched: readonly DueRelease[], runId: string): ReleaseWatch {
  db.exec(FOUND_RELEASES_DDL);
  const figuresIn = figuresInOf(db);
  const record = db.prepare(`INSERT OR IGNORE INTO found_releases
    (event_id, release_slug, source, scheduled_at, due_from, found_at, latency_seconds, run_id)
    VALUES (@eventId, @release, @source, @scheduledAt, @dueFrom, @foundAt, @latencySeconds, @runId)`);
  const watch: ReleaseWatch = { found: [], closed: [], pending: [] };
  for (const release of watched) {
    const { eventId, scheduledAt, dueFrom, dueUntil } = release;
    const figures = figuresIn(release);
    if (figures === null) {
      watch.pending.push({ eventId, release: release.release, scheduledAt, dueFrom, dueUntil });
      continue;
    }
    if (figures.by === "inputs") {
      watch.closed.push({ eventId, release: release.release, dueFrom, inputsReadAt: figures.at });
      continue;
    }
    const foundAt = figures.at;
    const found: FoundRelease = {
      eventId: release.eventId,
      release: release.release,
      source: release.sources[0]!,
      scheduledAt: release.scheduledAt,
      dueFrom: release.dueFrom,
      foundAt,
      latencySeconds:
        release.scheduledAt === null ? null : (Date.parse(foundAt) - Date.parse(release.scheduledAt)) / 1000,
    };
    record.run({ ...found, runId });
    watch.found.push(found);
  }
  return watch;
}

/** The summary's lines about watched releases (stdout, after the run's own lines). */
export function watchLines(watch: ReleaseWatch): string {
  const lines = [
    ...watch.found.map(
      (found) =>
        `release ${found.release} found at ${found.foundAt}` +
        (found.latencySeconds === null
          ? ` (dated without a time; due from ${found.dueFrom})`
          : `, ${found.latencySeconds.toFixed(0)} s after its scheduled ${found.scheduledAt}`),
    ),
    ...watch.closed.map(
      (closed) =>
        `release ${closed.release} closed: the inputs its series are derived from were read at ${closed.inputsReadAt}, after it became due at ${closed.dueFrom} (no figure of its own to find)`,
    ),
    ...watch.pending.map(
      (pending) => `release ${pending.release} not in yet: asked again by the next run until ${pending.dueUntil}`,
    ),
  ];
  return lines.map((line) => `${line}\n`).join("");
}
