import { describe, expect, it } from "vitest";
import { authenticate } from "../../server/http/auth.ts";
import { newKey, type StoredKey } from "../../server/keys/api-keys.ts";

const bearer = (secret: string) => new Headers({ authorization: `Bearer ${secret}` });

function keyOn(environment = "test") {
  return newKey({ name: "t", environment, scopes: ["economics:read"], createdAt: "2026-11-23T00:00:00Z" });
}

/**
 * A key verified on a connection is not hashed again for the same header on that connection while the key file
 * holds the same record; everything that must fail still fails.
 */
describe("authenticate on a keep-alive connection", () => {
  it("accepts the key again on its connection, and on another connection by its hash", () => {
    const { record, secret } = keyOn();
    const lookup = (id: string) => (id === record.id ? record : undefined);
    const connection = {};
    expect(authenticate(bearer(secret), lookup, "test", connection)).toEqual({
      keyId: record.id,
      scopes: ["economics:read"],
    });
    expect(authenticate(bearer(secret), lookup, "test", connection)).toEqual({
      keyId: record.id,
      scopes: ["economics:read"],
    });
    expect(authenticate(bearer(secret), lookup, "test", {})).toEqual({ keyId: record.id, scopes: ["economics:read"] });
  });

  it("refuses another secret for the same key id on the connection that verified the right one", () => {
    const { record, secret } = keyOn();
    const lookup = (id: string) => (id === record.id ? record : undefined);
    const connection = {};
    authenticate(bearer(secret), lookup, "test", connection);
    const forged = `${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}`;
    expect(authenticate(bearer(forged), lookup, "test", connection)).toBeNull();
    expect(authenticate(bearer(secret), lookup, "test", connection)).not.toBeNull();
  });

  it("applies a revocation as soon as the key file gives the revoked record", () => {
    const { record, secret } = keyOn();
    let current: StoredKey = record;
    const lookup = () => current;
    const connection = {};
    expect(authenticate(bearer(secret), lookup, "test", connection)).not.toBeNull();
    current = { ...record, revokedAt: "2026-11-23T01:00:00Z" };
    expect(authenticate(bearer(secret), lookup, "test", connection)).toBeNull();
    // A record that changed but still matches is verified again, not refused.
    current = { ...record };
    expect(authenticate(bearer(secret), lookup, "test", connection)).not.toBeNull();
  });

  it("remembers a refusal for a key of another environment as a refusal", () => {
    const { record, secret } = keyOn("production");
    const lookup = () => record;
    const connection = {};
    expect(authenticate(bearer(secret), lookup, "test", connection)).toBeNull();
    expect(authenticate(bearer(secret), lookup, "test", connection)).toBeNull();
  });

  it("verifies a key anew when it comes in the other header or in other text, and refuses a forgery in either", () => {
    const { record, secret } = keyOn();
    const lookup = (id: string) => (id === record.id ? record : undefined);
    const connection = {};
    const principal = { keyId: record.id, scopes: ["economics:read"] };
    expect(authenticate(bearer(secret), lookup, "test", connection)).toEqual(principal);
    expect(authenticate(new Headers({ "x-api-key": secret }), lookup, "test", connection)).toEqual(principal);
    expect(authenticate(new Headers({ authorization: `bearer   ${secret} ` }), lookup, "test", connection)).toEqual(
      principal,
    );
    const forged = `${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}`;
    expect(authenticate(new Headers({ "x-api-key": forged }), lookup, "test", connection)).toBeNull();
    expect(authenticate(new Headers({ authorization: `bearer   ${forged} ` }), lookup, "test", connection)).toBeNull();
    expect(authenticate(new Headers({ authorization: "Bearer" }), lookup, "test", connection)).toBeNull();
  });
});
