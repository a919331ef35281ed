import { readFileSync } from "node:fs";

/** A recorded publisher document from `data/samples/<source>/` (provenance in data/samples/SOURCES.md). */
export function sample(source: string, name: string): Buffer {
  return readFileSync(new URL(`../../../data/samples/${source}/${name}`, import.meta.url));
}
