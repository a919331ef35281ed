import type Database from "better-sqlite3";
import { FOUND_RELEASES_DDL } from "../../schemas/release-latency.ts";
import type { DueRelease } from "./due-releases.ts";

/** A watched release whose figures a run found: when, and how long after its scheduled instant. */
export interface FoundRelease {
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

/** What a run made of the releases due when it started: those whose figures it found, those still awaited. */
export interface ReleaseWatch {
  found: FoundRelease[];
  pending: { eventId: string; release: string; scheduledAt: string | null; dueFrom: string; dueUntil: string }[];
}

/**
 * Which of the releases due at the start of a run have their figures now, recorded in the ledger's `found_releases`
 * (once per event: the first run to find it). Called in the run's last moments, on its own store connection.
 */
export function watchedReleases(db: Database.Database, watched: readonly DueRelease[], runId: string): ReleaseWatch {
  db.exec(FOUND_RELEASES_DDL);
  const firstEvidence = db
    .prepare("SELECT min(observed_at) FROM evidence WHERE event_id = ? AND kind = 'VERIFIED_VALUE'")
    .pluck();
  const record = db.prepare(`INSERT OR IGNORE INTO found_releases
    (event_id, release_slug, source, scheduled_at, due_from, found_at, latency_seconds, run_id)
    VALUES (@eventId, @release, @source, @scheduledAt, @dueFrom, @foundAt, @latencySeconds, @runId)`);
  const watch: ReleaseWatch = { found: [], pending: [] };
  for (const release of watched) {
    const foundAt = firstEvidence.get(release.eventId) as string | null;
    if (foundAt === null) {
      const { eventId, scheduledAt, dueFrom, dueUntil } = release;
      watch.pending.push({ eventId, release: release.release, scheduledAt, dueFrom, dueUntil });
      continue;
    }
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
    ...watch.pending.map(
      (pending) => `release ${pending.release} not in yet: asked again by the next run until ${pending.dueUntil}`,
    ),
  ];
  return lines.map((line) => `${line}\n`).join("");
}
