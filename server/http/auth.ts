import type { Scope } from "../../schemas/vocabularies.ts";
import { keyIdOf, type StoredKey, secretMatches } from "../keys/api-keys.ts";
import type { HeaderReader } from "./api-request.ts";

export interface Principal {
  keyId: string;
  scopes: Scope[];
}

/** The header a key is presented in: `Authorization: Bearer <key>` or, failing that, `X-API-Key: <key>`. */
type KeyHeader = "authorization" | "x-api-key";

const BEARER = /^Bearer[ ]+(\S+)\s*$/i;

/** The key in the text of the header it came in; null when that text holds none. */
function keyIn(header: KeyHeader, text: string): string | null {
  if (header === "x-api-key") return text.trim();
  const match = BEARER.exec(text);
  return match ? match[1]! : null;
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
  const authorization = headers.get("authorization");
  const header: KeyHeader = authorization !== null ? "authorization" : "x-api-key";
  const text = authorization ?? headers.get("x-api-key");
  if (text === null) return null;
  const secret = keyIn(header, text);
  if (!secret) return null;
  const id = keyIdOf(secret);
  if (!id) return null;
  const record = lookup(id);
  if (!record || !secretMatches(secret, record)) return null;
  if (record.revokedAt !== null || record.environment !== environment) return null;
  return { keyId: record.id, scopes: record.scopes };
}
