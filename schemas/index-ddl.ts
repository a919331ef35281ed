/**
 * The published index (`index.sqlite`): written whole by `service ingest`, renamed into place, then only read.
 * It holds records ready to serve, so requests do no assembly beyond filtering, paging and per-request state.
 */
export const INDEX_DDL = `
CREATE TABLE publication (
  key TEXT PRIMARY KEY,
  value TEXT
) STRICT;

CREATE TABLE events (
  id TEXT PRIMARY KEY,
  scheduled_date TEXT NOT NULL,
  scheduled_at TEXT,
  release_slug TEXT NOT NULL,
  country TEXT,
  region TEXT,
  currency TEXT NOT NULL,
  importance TEXT NOT NULL,
  status TEXT NOT NULL,
  confirmed INTEGER NOT NULL,
  record TEXT NOT NULL
) STRICT;
CREATE INDEX events_in_order ON events (scheduled_date, scheduled_at IS NULL, scheduled_at, id);

CREATE TABLE event_sources (
  event_id TEXT NOT NULL,
  source TEXT NOT NULL,
  PRIMARY KEY (event_id, source)
) STRICT;

CREATE TABLE observations (
  series_slug TEXT NOT NULL,
  reference_period TEXT NOT NULL,
  value TEXT,
  publication_status TEXT,
  revision_count INTEGER NOT NULL,
  previous_value TEXT,
  source_updated_at TEXT,
  ingested_at TEXT NOT NULL,
  published_at TEXT,
  derived_inputs TEXT,
  source TEXT,
  adapter TEXT,
  transformation TEXT,
  derivation TEXT NOT NULL,
  document_sha256 TEXT,
  document_fetched_at TEXT,
  note TEXT,
  -- When the latest document carrying the period was fetched (…T…:SS.sssZ), changed or not: from then on an as-of
  -- answer gives the served source_updated_at, which that document may have moved without a new vintage.
  last_sighted_at TEXT,
  PRIMARY KEY (series_slug, reference_period)
) STRICT;

-- Every vintage of every served period, for the credentialed route's as-of and all-vintages answers. recorded_at is
-- when the service had the vintage: the fetch of the document that carried it (the run's time where none was kept);
-- null where the document's fetch time is not known (an old recording), so an as-of answer never includes it.
CREATE TABLE vintages (
  series_slug TEXT NOT NULL,
  reference_period TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  value TEXT,
  publication_status TEXT,
  recorded_at TEXT,
  run_id TEXT NOT NULL,
  source_updated_at TEXT,
  ingested_at TEXT NOT NULL,
  derived_inputs TEXT,
  source TEXT,
  adapter TEXT,
  transformation TEXT,
  derivation TEXT NOT NULL,
  document_sha256 TEXT,
  document_fetched_at TEXT,
  note TEXT,
  PRIMARY KEY (series_slug, reference_period, sequence)
) STRICT;

CREATE TABLE series_facts (
  series_slug TEXT PRIMARY KEY,
  last_ingested_at TEXT NOT NULL,
  observation_count INTEGER NOT NULL
) STRICT;

CREATE TABLE source_checks (
  source TEXT PRIMARY KEY,
  last_received_at TEXT,
  last_success_at TEXT,
  latest_check TEXT NOT NULL,
  checked_at TEXT NOT NULL
) STRICT;

CREATE TABLE news (
  id TEXT PRIMARY KEY,
  published_at TEXT NOT NULL,
  source TEXT NOT NULL,
  type TEXT NOT NULL,
  topic TEXT,
  state TEXT NOT NULL,
  link_status TEXT NOT NULL,
  release_slug TEXT,
  country TEXT,
  content_changed_at TEXT NOT NULL,
  record TEXT NOT NULL
) STRICT;
CREATE INDEX news_newest_first ON news (published_at DESC, id);

CREATE TABLE news_series (
  news_id TEXT NOT NULL,
  series_slug TEXT NOT NULL,
  PRIMARY KEY (news_id, series_slug)
) STRICT;
`;

/**
 * The index's facts. `publishedAt` names the generation (the instant this file was published); `dataRebuiltAt` is when
 * its data was last rebuilt (spec `meta.dataUpdatedAt`). They differ only in an index published again with nothing but
 * its source checks brought up to date (cli/ingest/index/publish-checks.ts); an index of an older version, without
 * `dataRebuiltAt`, was always rebuilt when published (its `dataRebuiltAt` is read as its `publishedAt`).
 */
export const PUBLICATION_KEYS = [
  "publishedAt",
  "dataRebuiltAt",
  "lastIngestedAt",
  "lastSuccessfulIngestionAt",
] as const;
export type PublicationFacts = Record<(typeof PUBLICATION_KEYS)[number], string | null>;
/** The facts a run states when it rebuilds the index: its data is rebuilt when it is published. */
export type RebuildFacts = Omit<PublicationFacts, "dataRebuiltAt">;

/** A row of the index's `vintages`: one vintage of a served period, with when it was recorded and by which run. */
export interface IndexVintageRow
  extends Omit<IndexObservationRow, "revision_count" | "previous_value" | "published_at" | "last_sighted_at"> {
  sequence: number;
  recorded_at: string | null;
  run_id: string;
}

/** A row of the index's `observations` table: the current vintage of one period with its revision facts. */
export interface IndexObservationRow {
  series_slug: string;
  reference_period: string;
  value: string | null;
  publication_status: string | null;
  revision_count: number;
  previous_value: string | null;
  source_updated_at: string | null;
  ingested_at: string;
  published_at: string | null;
  /** JSON of the inputs, for a series the service derives. */
  derived_inputs: string | null;
  /** Provenance of the current vintage: source slug, adapter, comma-joined transformations, derivation, document. */
  source: string | null;
  adapter: string | null;
  transformation: string | null;
  derivation: string;
  document_sha256: string | null;
  document_fetched_at: string | null;
  /** The publisher's own note on the value (a footnote, a status label), or why a derived value has none. */
  note: string | null;
  /** When the latest document carrying the period was fetched; null for a value no document carries (derived). */
  last_sighted_at: string | null;
}
