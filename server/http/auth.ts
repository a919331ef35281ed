import type { Scope } from "../../schemas/vocabularies.ts";
import { keyIdOf, type StoredKey, secretMatches } from "../keys/api-keys.ts";
import type { HeaderReader } from "./api-request.ts";

export interface Principal {
  keyId: string;
  scopes: Scope[];
}

const BEARER_SCHEME = /^Bearer(\s|$)/i;
const BEARER = /^Bearer[ ]+(\S+)\s*$/i;

/** A Bearer credential (null when malformed), else `X-API-Key`'s: another scheme (a proxy's Basic) is not ours. */
function presentedKey(headers: HeaderReader): string | null {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const bearer = BEARER.exec(authorization);
    if (bearer) return bearer[1]!;
    // A malformed bearer credential is refused, not passed over.
    if (BEARER_SCHEME.test(authorization)) return null;
  }
  return headers.get("x-api-key")?.trim() || null;
}

/** Null for a missing, malformed, unknown, revoked or other-environment key: all 401, alike to the caller. */
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
