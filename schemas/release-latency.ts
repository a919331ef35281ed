/**
 * When the figures of each release were found, in the store's ledger: written by `service ingest` as a run finds a
 * release it was watching (cli/ingest/due/found-releases.ts), read by the server's `service_release_latency_seconds`.
 * `latency_seconds` is from the event's scheduled instant to the fetch that brought the figures; null for an event
 * its calendar dates without a time (then only `due_from`, the publisher's customary hour, is known).
 */
export const FOUND_RELEASES_DDL = `
CREATE TABLE IF NOT EXISTS found_releases (
  event_id TEXT PRIMARY KEY,
  release_slug TEXT NOT NULL,
  source TEXT NOT NULL,
  scheduled_at TEXT,
  due_from TEXT NOT NULL,
  found_at TEXT NOT NULL,
  latency_seconds REAL,
  run_id TEXT NOT NULL
) STRICT;
`;

/** From a release found within seconds to one found at the end of the default two-hour deadline, or an hourly run's. */
export const RELEASE_LATENCY_BUCKETS_SECONDS = [5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200];
