import type { Scope } from "../../schemas/vocabularies.ts";
import type { HeaderReader } from "./incoming.ts";
import { keyIdOf, secretMatches, type StoredKey } from "../keys/api-keys.ts";

export interface Principal {
  keyId: string;
  scopes: Scope[];
}

/** The key from `Authorization: Bearer <key>` or, failing that, `X-API-Key: <key>`. */
export function presentedKey(headers: HeaderReader): string | null {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
    return match ? match[1]! : null;
  }
  const header = headers.get("x-api-key");
  return header === null ? null : header.trim();
}

/** A connection a request came on (Node's socket), when the server states it. */
export type Connection = object;

/**
 * Per connection, the last key verified on it and the stored record it matched. A client sends the same
 * `Authorization` on every request of a keep-alive connection: while the key file still holds that very record (a
 * changed file gives new records; key-file.ts looks again every 50 ms), the same text need not be hashed again. Only
 * the same connection's own earlier header is compared, so no caller can probe another's key through it.
 */
const verifiedOnConnection = new WeakMap<Connection, { secret: string; record: StoredKey; principal: Principal | null }>();

/**
 * Null for a missing, malformed, unknown, revoked or other-environment key: all of them are 401,
 * and the caller cannot tell them apart.
 */
export function authenticate(
  headers: HeaderReader,
  lookup: (id: string) => StoredKey | undefined,
  environment: string,
  connection?: Connection,
): Principal | null {
  const secret = presentedKey(headers);
  if (!secret) return null;
  const id = keyIdOf(secret);
  if (!id) return null;
  const record = lookup(id);
  if (!record) return null;
  const verified = connection && verifiedOnConnection.get(connection);
  if (verified && verified.record === record && verified.secret === secret) return verified.principal;
  if (!secretMatches(secret, record)) return null;
  const principal = record.revokedAt !== null || record.environment !== environment ? null : { keyId: record.id, scopes: record.scopes };
  if (connection) verifiedOnConnection.set(connection, { secret, record, principal });
  return principal;
}
