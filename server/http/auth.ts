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

/**
 * Null for a missing, malformed, unknown, revoked or other-environment key: all of them are 401,
 * and the caller cannot tell them apart.
 */
export function authenticate(
  headers: HeaderReader,
  lookup: (id: string) => StoredKey | undefined,
  environment: string,
): Principal | null {
  const secret = presentedKey(headers);
  if (!secret) return null;
  const id = keyIdOf(secret);
  if (!id) return null;
  const record = lookup(id);
  if (!record || !secretMatches(secret, record)) return null;
  if (record.revokedAt !== null || record.environment !== environment) return null;
  return { keyId: record.id, scopes: record.scopes };
}
