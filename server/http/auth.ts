import { timingSafeEqual } from "node:crypto";
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
 * changed file gives new records; key-file.ts looks again every 50 ms), the same text need not be hashed again. The
 * texts are compared in constant time, as the hashes would be: behind a proxy, one connection carries many clients.
 */
const verifiedOnConnection = new WeakMap<Connection, { secret: Buffer; record: StoredKey; principal: Principal | null }>();

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
  const presented = Buffer.from(secret);
  const verified = connection && verifiedOnConnection.get(connection);
  // keyIdOf admits secrets of one length only, so the comparison never throws.
  if (verified && verified.record === record && timingSafeEqual(verified.secret, presented)) return verified.principal;
  if (!secretMatches(secret, record)) return null;
  const principal = record.revokedAt !== null || record.environment !== environment ? null : { keyId: record.id, scopes: record.scopes };
  if (connection) verifiedOnConnection.set(connection, { secret: presented, record, principal });
  return principal;
}
