import { describe, expect, it } from "vitest";
import { newKey } from "../../cli/keys/new-key.ts";
import { authenticate } from "../../server/http/auth.ts";
import type { StoredKey } from "../../server/keys/api-keys.ts";

const bearer = (secret: string) => new Headers({ authorization: `Bearer ${secret}` });

function keyOn(environment = "test") {
  return newKey({ name: "t", environment, scopes: ["economics:read"], createdAt: "2026-11-23T00:00:00Z" });
}

/** A key is verified by its hash on every request; everything that must fail fails every time. */
describe("authenticate", () => {
  it("accepts the key on every request", () => {
    const { record, secret } = keyOn();
    const lookup = (id: string) => (id === record.id ? record : undefined);
    expect(authenticate(bearer(secret), lookup, "test")).toEqual({
      keyId: record.id,
      scopes: ["economics:read"],
    });
    expect(authenticate(bearer(secret), lookup, "test")).toEqual({
      keyId: record.id,
      scopes: ["economics:read"],
    });
  });

  it("refuses another secret for the same key id after the right one", () => {
    const { record, secret } = keyOn();
    const lookup = (id: string) => (id === record.id ? record : undefined);
    authenticate(bearer(secret), lookup, "test");
    const forged = `${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}`;
    expect(authenticate(bearer(forged), lookup, "test")).toBeNull();
    expect(authenticate(bearer(secret), lookup, "test")).not.toBeNull();
  });

  it("applies a revocation as soon as the key file gives the revoked record", () => {
    const { record, secret } = keyOn();
    let current: StoredKey = record;
    const lookup = () => current;
    expect(authenticate(bearer(secret), lookup, "test")).not.toBeNull();
    current = { ...record, revokedAt: "2026-11-23T01:00:00Z" };
    expect(authenticate(bearer(secret), lookup, "test")).toBeNull();
    // A record that changed but still matches is verified again, not refused.
    current = { ...record };
    expect(authenticate(bearer(secret), lookup, "test")).not.toBeNull();
  });

  it("refuses a key of another environment every time", () => {
    const { record, secret } = keyOn("production");
    const lookup = () => record;
    expect(authenticate(bearer(secret), lookup, "test")).toBeNull();
    expect(authenticate(bearer(secret), lookup, "test")).toBeNull();
  });

  it("verifies a key anew when it comes in the other header or in other text, and refuses a forgery in either", () => {
    const { record, secret } = keyOn();
    const lookup = (id: string) => (id === record.id ? record : undefined);
    const principal = { keyId: record.id, scopes: ["economics:read"] };
    expect(authenticate(bearer(secret), lookup, "test")).toEqual(principal);
    expect(authenticate(new Headers({ "x-api-key": secret }), lookup, "test")).toEqual(principal);
    expect(authenticate(new Headers({ authorization: `bearer   ${secret} ` }), lookup, "test")).toEqual(principal);
    const forged = `${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}`;
    expect(authenticate(new Headers({ "x-api-key": forged }), lookup, "test")).toBeNull();
    expect(authenticate(new Headers({ authorization: `bearer   ${forged} ` }), lookup, "test")).toBeNull();
    expect(authenticate(new Headers({ authorization: "Bearer" }), lookup, "test")).toBeNull();
  });

  it("reads X-API-Key beside an Authorization header of another scheme, and the bearer credential when both are sent", () => {
    const { record, secret } = keyOn();
    const lookup = (id: string) => (id === record.id ? record : undefined);
    const principal = { keyId: record.id, scopes: ["economics:read"] };
    // A proxy may add its own Basic credentials: they do not hide the key (spec: either of two alternative schemes).
    const basic = new Headers({ authorization: "Basic dXNlcjpwYXNz", "x-api-key": secret });
    expect(authenticate(basic, lookup, "test")).toEqual(principal);
    expect(authenticate(new Headers({ authorization: "Basic dXNlcjpwYXNz" }), lookup, "test")).toBeNull();
    const forged = `${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}`;
    const both = new Headers({ authorization: `Bearer ${forged}`, "x-api-key": secret });
    expect(authenticate(both, lookup, "test")).toBeNull();
    // A malformed bearer credential is refused, not passed over for the other header.
    for (const authorization of ["Bearer", "Bearer ", `Bearer a ${secret}`, `Bearer\t${secret}`])
      expect(
        authenticate(new Headers({ authorization, "x-api-key": secret }), lookup, "test"),
        authorization,
      ).toBeNull();
  });
});
