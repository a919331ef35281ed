/** Names of the files in the data directory: the CLI writes them, the server reads them. */
export const DATA_FILES = {
  registry: "registry.json",
  index: "index.sqlite",
  store: "store.sqlite",
  keys: "keys.json",
  places: "places.sqlite",
  archive: "archive",
  /** Progress logs of ingestion runs started through the operator route (schemas/ingestion-runs.ts). */
  logs: "logs",
} as const;
