import { existsSync, readFileSync } from "node:fs";
import { DateTime } from "luxon";
import { SCOPES } from "../../schemas/vocabularies.ts";
import { createReloadingFile, PUBLISHED_FILE_RECHECK_MS } from "../files/reloading-file.ts";
import { KEY_ID_PATTERN, type KeyFile, type StoredKey } from "./api-keys.ts";

/**
 * The key file, every entry checked: a damaged entry would otherwise be listed as a TypeError, kept by `keys create`,
 * and served as a key with missing fields. The server answers the error as an unreadable file (CONFIGURATION_ERROR).
 */
export function readKeyFile(path: string): KeyFile {
  if (!existsSync(path)) return { keys: [] };
  const parsed = JSON.parse(readFileSync(path, "utf8")) as { keys?: unknown } | null;
  if (!parsed || typeof parsed !== "object" || !Array.isArray(parsed.keys))
    throw new Error(`key file ${path} is not a key list`);
  // A repeated id would be revoked in one entry and still served from the other: the server keeps the last.
  const positionOfId = new Map<string, number>();
  parsed.keys.forEach((entry, position) => {
    const problem = entryProblem(entry);
    if (problem) throw new Error(`key file ${path}: entry ${position + 1}${idOf(entry)} ${problem}`);
    const { id } = entry as StoredKey;
    const earlier = positionOfId.get(id);
    if (earlier !== undefined)
      throw new Error(`key file ${path}: entries ${earlier + 1} and ${position + 1} have the same id ${id}`);
    positionOfId.set(id, position);
  });
  return parsed as KeyFile;
}

const isText = (value: unknown): value is string => typeof value === "string" && value !== "";
const isInstant = (value: unknown): value is string =>
  isText(value) && DateTime.fromISO(value, { setZone: true }).isValid;

/** What is wrong with one entry of the key file, or null when it is a whole key record. */
function entryProblem(entry: unknown): string | null {
  if (!entry || typeof entry !== "object" || Array.isArray(entry)) return "is not a key record";
  const key = entry as Record<keyof StoredKey, unknown>;
  if (!isText(key.id)) return "has no id";
  // No secret could name any other id (keyIdOf), so such a key could never be used.
  if (!KEY_ID_PATTERN.test(key.id)) return "has an id that is not 16 hexadecimal digits";
  for (const field of ["name", "environment"] as const) {
    if (typeof key[field] !== "string") return `has no ${field}`;
  }
  if (!isInstant(key.createdAt)) return "has a createdAt that is not an ISO 8601 time";
  if (!(typeof key.secretHash === "string" && /^[0-9a-f]{64}$/.test(key.secretHash)))
    return "has no secretHash (64 hexadecimal digits)";
  if (
    !Array.isArray(key.scopes) ||
    key.scopes.length === 0 ||
    !key.scopes.every((scope) => (SCOPES as readonly unknown[]).includes(scope))
  ) {
    return `has scopes that are not a non-empty list of ${SCOPES.join(", ")}`;
  }
  // null is active; the server takes anything else, even a missing field, as revoked, so only a time may stand here.
  if (key.revokedAt !== null && !isInstant(key.revokedAt))
    return "has a revokedAt that is neither null nor an ISO 8601 time";
  return null;
}

const idOf = (entry: unknown) => {
  const id = (entry as { id?: unknown } | null)?.id;
  return isText(id) ? ` (id ${id})` : "";
};

/** The key file looked at again every KEY_FILE_RECHECK_MS, and at once for an unknown id (a key just created). */
export function createKeyLookup(path: string): (id: string) => StoredKey | undefined {
  const byId = createReloadingFile(
    path,
    (file) => new Map(readKeyFile(file).keys.map((key) => [key.id, key])),
    () => new Map<string, StoredKey>(),
    { recheckAfterMs: KEY_FILE_RECHECK_MS },
  );
  return (id) => byId().get(id) ?? byId(true).get(id);
}

/** How soon a revocation applies, in milliseconds. */
export const KEY_FILE_RECHECK_MS = PUBLISHED_FILE_RECHECK_MS;
