import { existsSync, readFileSync } from "node:fs";
import { DateTime } from "luxon";

/**
 * A recording's fetch time, kept beside it as `<file>.fetch.json` (the sample archive's files, whose names are the
 * recorders' own): `fetchedAt` is the instant the recording states, or null when it states none. The replay reads it
 * and nothing else: a date in a file name is not a fetch time (it may be the window the document covers).
 */
export const FETCH_SIDECAR_SUFFIX = ".fetch.json";

interface FetchSidecar {
  /** When the document was fetched from the publisher (ISO 8601 UTC), or null when no recording of it says. */
  fetchedAt: string | null;
  /** The recording's own words the instant is read from (a `Date` header, "captured 2026-08-24"), or why it is null. */
  stated: string;
}

export const isFetchSidecar = (name: string) => name.endsWith(FETCH_SIDECAR_SUFFIX);

/**
 * The sidecar of a file, if it has one. A sidecar that cannot be read, or whose `fetchedAt` is neither null nor an
 * instant with its zone, is an error: a replay never falls back to a guessed time.
 */
export function readFetchSidecar(path: string): FetchSidecar | null {
  const sidecar = `${path}${FETCH_SIDECAR_SUFFIX}`;
  if (!existsSync(sidecar)) return null;
  const value = readJsonObject(sidecar) as Partial<FetchSidecar>;
  const { fetchedAt } = value;
  if (fetchedAt === null || fetchedAt === undefined) return { fetchedAt: null, stated: String(value.stated ?? "") };
  const instant = typeof fetchedAt === "string" ? DateTime.fromISO(fetchedAt, { setZone: true }) : null;
  if (!instant?.isValid || !/(Z|[+-]\d{2}:\d{2})$/.test(fetchedAt as string))
    throw new Error(`${sidecar}: fetchedAt is not an instant with its zone (${JSON.stringify(fetchedAt)})`);
  return { fetchedAt: instant.toUTC().toISO()!, stated: String(value.stated ?? "") };
}

function readJsonObject(path: string): object {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`${path}: not JSON (${(error as Error).message})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error(`${path}: not a JSON object`);
  return value;
}
