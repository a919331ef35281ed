import { randomBytes, randomUUID } from "node:crypto";
import type { Scope } from "../../schemas/vocabularies.ts";
import { hashSecret, SECRET_PREFIX, type StoredKey } from "../../server/keys/api-keys.ts";

/** The secret is `svc_<id>_<random>`: the id finds the record, the hash proves the secret. */
export function newKey(input: { name: string; environment: string; scopes: Scope[]; createdAt: string }): {
  record: StoredKey;
  secret: string;
} {
  const id = randomUUID().replaceAll("-", "").slice(0, 16);
  const secret = `${SECRET_PREFIX}_${id}_${randomBytes(32).toString("base64url")}`;
  return { record: { id, ...input, secretHash: hashSecret(secret), revokedAt: null }, secret };
}
