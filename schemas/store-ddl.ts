import { CALENDAR_SKIP_REASONS, CHECK_RESULTS, RUN_OUTCOMES } from "./vocabularies.ts";

const sqlList = (values: readonly string[]) => values.map((value) => `'${value}'`).join(", ");

/**
 * The durable ledger (`store.sqlite`), written only by `service ingest`. Observation vintages and
 * document records are append-only; events are updated in place with their change history kept.
 */
export const STORE_DDL = `
CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  mode TEXT NOT NULL CHECK (mode IN ('fetch', 'archive')),
  outcome TEXT NOT NULL CHECK (outcome IN (${sqlList(RUN_OUTCOMES)})),
  summary TEXT
) STRICT;

CREATE TABLE IF NOT EXISTS source_checks (
  run_id TEXT NOT NULL REFERENCES runs(id),
  source TEXT NOT NULL,
  checked_at TEXT NOT NULL,
  result TEXT NOT NULL CHECK (result IN (${sqlList(CHECK_RESULTS)})),
  detail TEXT,
  PRIMARY KEY (run_id, source)
) STRICT;

CREATE TABLE IF NOT EXISTS documents (
  sha256 TEXT NOT NULL,
  run_id TEXT NOT NULL REFERENCES runs(id),
  source TEXT NOT NULL,
  url TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  http_status INTEGER,
  etag TEXT,
  last_modified TEXT,
  bytes INTEGER NOT NULL,
  archive_path TEXT NOT NULL,
  PRIMARY KEY (run_id, source, url, sha256)
) STRICT;

CREATE TABLE IF NOT EXISTS events (
  id TEXT PRIMARY KEY,
  release_slug TEXT NOT NULL,
  title TEXT NOT NULL,
  scheduled_date TEXT NOT NULL,
  scheduled_at TEXT,
  time_precision TEXT NOT NULL,
  source_timezone TEXT NOT NULL,
  reference_period TEXT,
  status TEXT NOT NULL,
  withdrawn_at TEXT,
  first_seen_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS event_sources (
  source TEXT NOT NULL,
  source_event_id TEXT NOT NULL,
  event_id TEXT NOT NULL REFERENCES events(id),
  title TEXT NOT NULL,
  scheduled_date TEXT NOT NULL,
  scheduled_at TEXT,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  PRIMARY KEY (source, source_event_id)
) STRICT;

CREATE TABLE IF NOT EXISTS event_changes (
  event_id TEXT NOT NULL REFERENCES events(id),
  run_id TEXT NOT NULL,
  changed_at TEXT NOT NULL,
  field TEXT NOT NULL,
  old_value TEXT,
  new_value TEXT,
  -- The archived document whose content made the change (null in stores written before it was kept).
  document_sha256 TEXT,
  document_fetched_at TEXT
) STRICT;

CREATE TABLE IF NOT EXISTS evidence (
  event_id TEXT NOT NULL REFERENCES events(id),
  kind TEXT NOT NULL,
  observed_at TEXT NOT NULL,
  released_at TEXT,
  detail TEXT NOT NULL,
  url TEXT,
  PRIMARY KEY (event_id, kind, detail)
) STRICT;

-- series_slug is a registry slug, or for a publisher series read only as the input of a derived one, its ledger key
-- (\`<api>:<upstream key>\`, which no slug can be). The provenance columns are those of VINTAGE_PROVENANCE_COLUMNS.
CREATE TABLE IF NOT EXISTS vintages (
  series_slug TEXT NOT NULL,
  reference_period TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  value TEXT,
  publication_status TEXT,
  source_updated_at TEXT,
  ingested_at TEXT NOT NULL,
  run_id TEXT NOT NULL,
  PRIMARY KEY (series_slug, reference_period, sequence)
) STRICT;

-- The latest document that carried each period, changed or not: when it was fetched and the update time it states
-- (the served \`sourceUpdatedAt\` moves with the publisher's timestamp even when no vintage is appended).
CREATE TABLE IF NOT EXISTS value_sightings (
  series_slug TEXT NOT NULL,
  reference_period TEXT NOT NULL,
  seen_at TEXT NOT NULL,
  source_updated_at TEXT,
  document_sha256 TEXT,
  run_id TEXT NOT NULL,
  PRIMARY KEY (series_slug, reference_period)
) STRICT;

CREATE TABLE IF NOT EXISTS announcements (
  source TEXT NOT NULL,
  source_item_id TEXT NOT NULL,
  title TEXT NOT NULL,
  url TEXT NOT NULL,
  published_at TEXT NOT NULL,
  updated_at TEXT,
  state TEXT NOT NULL CHECK (state IN ('NEW', 'UPDATED', 'WITHDRAWN')),
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  content_changed_at TEXT NOT NULL,
  type TEXT NOT NULL,
  topic TEXT,
  link_status TEXT NOT NULL,
  links TEXT NOT NULL,
  PRIMARY KEY (source, source_item_id)
) STRICT;

-- Documents whose content has been applied under a registry (by hashes): a replayed archive does not apply them
-- again, since an older snapshot re-applied after a newer one would undo the newer one's revisions.
CREATE TABLE IF NOT EXISTS applied_documents (
  source TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  registry_sha256 TEXT NOT NULL,
  run_id TEXT NOT NULL,
  applied_at TEXT NOT NULL,
  PRIMARY KEY (source, sha256, registry_sha256)
) STRICT;

-- Releases the registry does not curate, each built from the calendar that lists it (cli/ingest/uncurated-releases.ts).
CREATE TABLE IF NOT EXISTS uncurated_releases (
  slug TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  source TEXT NOT NULL,
  first_seen_at TEXT NOT NULL
) STRICT;

-- Calendar records that did not become events, and why, as last seen. An event whose every source record is now
-- skipped as not being one (say, a meeting row once read as a decision) is withheld from the index.
CREATE TABLE IF NOT EXISTS skipped_calendar_records (
  source TEXT NOT NULL,
  record TEXT NOT NULL,
  reason TEXT NOT NULL CHECK (reason IN (${sqlList(CALENDAR_SKIP_REASONS)})),
  detail TEXT NOT NULL,
  title TEXT,
  scheduled_date TEXT,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  run_id TEXT NOT NULL,
  PRIMARY KEY (source, record, reason)
) STRICT;

-- Each fetch of a calendar or value document that was applied, by when it was fetched: a replay of an archive applies
-- every recorded fetch once, in fetch order, even one that brought back the content of an earlier fetch.
CREATE TABLE IF NOT EXISTS applied_fetches (
  source TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  registry_sha256 TEXT NOT NULL,
  run_id TEXT NOT NULL,
  PRIMARY KEY (source, sha256, fetched_at, registry_sha256)
) STRICT;

-- A publisher whose 429 or 503 with a Retry-After ended a run's asking: not asked again by a due run (\`service ingest
-- --due\`, every minute) before \`not_before\` (cli/ingest/due/source-waits.ts). The latest such answer per source.
CREATE TABLE IF NOT EXISTS source_waits (
  source TEXT PRIMARY KEY,
  not_before TEXT NOT NULL,
  asked_at TEXT NOT NULL,
  run_id TEXT NOT NULL
) STRICT;

-- What each calendar snapshot stated and when (calendar-statements.ts): the fetch time of the newest snapshot that listed
-- each record, and the dates each applied snapshot covers; '' for a fetch time nothing records (older than any).
CREATE TABLE IF NOT EXISTS calendar_statements (
  source TEXT NOT NULL,
  source_event_id TEXT NOT NULL,
  stated_at TEXT NOT NULL,
  PRIMARY KEY (source, source_event_id)
) STRICT;
CREATE TABLE IF NOT EXISTS calendar_snapshots (
  source TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  first_date TEXT NOT NULL,
  last_date TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  run_id TEXT NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (source, fetched_at, sha256, first_date, last_date)
) STRICT;

-- The newest period of each linkable series in each value document applied, with the fetch that brought it: what
-- links a period to the event that published it (link-periods-by-value.ts), kept so that every run can link again
-- from the whole store, whatever order the documents and calendars came in.
CREATE TABLE IF NOT EXISTS value_document_periods (
  sha256 TEXT NOT NULL,
  retrieved_at TEXT NOT NULL,
  series_id TEXT NOT NULL,
  reference_period TEXT NOT NULL,
  value TEXT NOT NULL,
  observed_at TEXT NOT NULL,
  run_id TEXT NOT NULL,
  PRIMARY KEY (sha256, retrieved_at, series_id)
) STRICT;

-- Events created, or changed in what links them (release, date, time, period, status), since the last run linked
-- them again (relink.ts): filled by the triggers below, emptied by that run.
CREATE TABLE IF NOT EXISTS events_to_relink (event_id TEXT PRIMARY KEY) STRICT;
CREATE TRIGGER IF NOT EXISTS relink_new_event AFTER INSERT ON events
  BEGIN INSERT OR IGNORE INTO events_to_relink VALUES (NEW.id); END;
CREATE TRIGGER IF NOT EXISTS relink_changed_event
  AFTER UPDATE OF release_slug, scheduled_date, scheduled_at, reference_period, status ON events
  BEGIN INSERT OR IGNORE INTO events_to_relink VALUES (NEW.id); END;

-- The ingestion's own lookups, one index per question, so that each costs a seek rather than a scan of a table
-- that grows with every run (IF NOT EXISTS adds them to stores written before they existed).
CREATE INDEX IF NOT EXISTS documents_by_hash ON documents (sha256);
CREATE INDEX IF NOT EXISTS events_by_release_date ON events (release_slug, scheduled_date);
CREATE INDEX IF NOT EXISTS events_by_release_period ON events (release_slug, json_extract(reference_period, '$.code'));
CREATE INDEX IF NOT EXISTS event_sources_by_event ON event_sources (event_id);
CREATE INDEX IF NOT EXISTS event_sources_by_date ON event_sources (source, scheduled_date);
CREATE INDEX IF NOT EXISTS event_changes_by_event ON event_changes (event_id);
`;

/**
 * Columns added to `vintages` after stores were first written: what each vintage's provenance is. A store opened
 * without them gets them (NULL in older rows: a publisher value whose source, adapter and document were not recorded).
 * `transformation` is comma-joined (VALUE_TRANSFORMATIONS), `derived_inputs` JSON; `derivation` NULL reads as
 * PUBLISHER_VALUE.
 */
export const VINTAGE_PROVENANCE_COLUMNS = [
  "source",
  "adapter",
  "transformation",
  "derivation",
  "document_sha256",
  "document_fetched_at",
  "note",
  "derived_inputs",
] as const;
