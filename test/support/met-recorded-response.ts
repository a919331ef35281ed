import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

/** MET's recorded answer in test/fixtures/met (see SOURCES.md there): its response headers and its body's bytes. */

const FIXTURES = new URL("../fixtures/met/", import.meta.url);
const RECORDED_HEADERS = "complete-london-2020-07-20.headers.txt";
export const DEFAULT_FIXTURE = "complete-london-2020-07-20.json";

export function readRecordedHeaders(): Map<string, string> {
  const lines = readFileSync(new URL(RECORDED_HEADERS, FIXTURES), "utf8").split("\n");
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (line.startsWith("#") || line.startsWith("HTTP/") || colon < 0) continue;
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

export function loadPayload(fixture: string): { json: Buffer; gzip: Buffer } {
  const json = readFileSync(new URL(fixture, FIXTURES));
  return { json, gzip: gzipSync(json) };
}
