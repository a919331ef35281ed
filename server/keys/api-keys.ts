import { hash } from "node:crypto";
import type { Scope } from "../../schemas/vocabularies.ts";

/** A stored key: only the secret's SHA-256 is kept (256 bits of entropy need no slow KDF). */
export interface StoredKey {
  id: string;
  name: string;
  environment: string;
  scopes: Scope[];
  secretHash: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface KeyFile {
  keys: StoredKey[];
}

/** Every secret begins `svc_` (newKey, cli/keys/new-key.ts). */
export const SECRET_PREFIX = "svc";

/** The hex SHA-256 a key file stores (one-shot `hash`, the faster form). */
export function hashSecret(secret: string): string {
  return hash("sha256", secret, "hex");
}

/** A key's id, as newKey makes it and a secret carries it. */
export const KEY_ID_PATTERN = /^[0-9a-f]{16}$/;
const SECRET_PATTERN = new RegExp(`^${SECRET_PREFIX}_(${KEY_ID_PATTERN.source.slice(1, -1)})_[A-Za-z0-9_-]{43}$`);

export function keyIdOf(secret: string): string | null {
  const match = SECRET_PATTERN.exec(secret);
  return match ? match[1]! : null;
}

/** Compares hashes in constant time, as text: decoding to Buffers per request costs more (docs/performance.md). */
export function secretMatches(secret: string, record: StoredKey): boolean {
  const presented = hashSecret(secret);
  const stored = record.secretHash;
  if (presented.length !== stored.length) return false;
  let difference = 0;
  for (let i = 0; i < presented.length; i++) difference |= presented.charCodeAt(i) ^ stored.charCodeAt(i);
  return difference === 0;
}
