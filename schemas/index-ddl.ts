/**
 * The published index (`index.sqlite`): written whole by `service ingest`, renamed into place, then only read.
 * `publication` holds the facts about the run that built it.
 */
export const INDEX_DDL = `
CREATE TABLE publication (
  key TEXT PRIMARY KEY,
  value TEXT
) STRICT;
`;

export const PUBLICATION_KEYS = ["publishedAt", "lastIngestedAt", "lastSuccessfulIngestionAt"] as const;
export type PublicationFacts = Record<(typeof PUBLICATION_KEYS)[number], string | null>;
