import fc from "fast-check";
import { hostileHeaderValue } from "./hostile-values.ts";

/** The headers of a hostile request (hostile-requests.ts): its key, odd values for headers the service reads, a bad Host. */

/** Secrets of real keys, by what they may do. `revoked` and `otherEnvironment` exist but must never authenticate. */
export type KeyRing = Record<
  "weather" | "economics" | "operator" | "everything" | "revoked" | "otherEnvironment",
  string
>;

/** None, each real key in either header form (or both, or the header twice), and keys that are broken or forged. */
export function authFor(keys: KeyRing): fc.Arbitrary<string[]> {
  const secret = fc.constantFrom(...Object.values(keys));
  const real = fc
    .record({ secret, form: fc.constantFrom("bearer", "x-api-key", "both", "lowercase-scheme", "repeated") })
    .map(({ secret: key, form }) => {
      switch (form) {
        case "bearer":
          return ["authorization", `Bearer ${key}`];
        case "x-api-key":
          return ["x-api-key", key];
        case "both":
          return ["authorization", `Bearer ${key}`, "x-api-key", keys.revoked];
        case "lowercase-scheme":
          return ["authorization", `bearer ${key}`];
        default:
          return ["authorization", `Bearer ${key}`, "authorization", `Bearer ${keys.weather}`];
      }
    });
  const broken = fc
    .record({ secret, how: fc.nat({ max: 8 }), noise: hostileHeaderValue })
    .map(({ secret: key, how, noise }) => {
      const tampered = `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`;
      const values = [
        `Bearer ${key}x`,
        `Bearer ${key.slice(0, -1)}`,
        `Bearer ${tampered}`,
        "Bearer",
        "Bearer ",
        "Basic dXNlcjpwYXNz",
        `Bearer  ${key}`,
        `Bearer ${key} extra`,
        `Bearer svc_${noise}`,
      ];
      return how % 2 === 0 ? ["authorization", values[how]!] : ["x-api-key", values[how]!.replace(/^Bearer ?/, "")];
    });
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant<string[]>([]) },
    { weight: 4, arbitrary: real },
    { weight: 2, arbitrary: broken },
  );
}

/** Odd values for headers the service reads or that frameworks often trust. */
export const extraHeaders: fc.Arbitrary<string[]> = fc
  .uniqueArray(
    fc.tuple(
      fc.constantFrom(
        "origin",
        "if-none-match",
        "accept",
        "accept-encoding",
        "content-type",
        "x-forwarded-for",
        "x-forwarded-host",
        "x-request-id",
        "access-control-request-method",
        "host",
        "cookie",
        "user-agent",
        "range",
      ),
      fc.oneof(
        hostileHeaderValue,
        fc.constantFrom(
          "*",
          'W/"x"',
          "null",
          "https://evil.example",
          "https://app.example.com",
          "GET",
          "DELETE",
          "[::1",
          "localhost:99999",
          "gzip, br",
          "application/json; charset=utf-7",
          "bytes=0-1,-1",
        ),
      ),
      // One of each: undici refuses a second Host outright.
    ),
    { maxLength: 3, selector: ([name]) => name },
  )
  .map((pairs) =>
    pairs.flatMap(([name, value]) =>
      // undici asserts (and then wedges its pool) on a Host of "[" with no "]": the client's limit, not the service's.
      [name, name === "host" && value.startsWith("[") && !value.includes("]") ? `${value}]` : value],
    ),
  );

/**
 * A Host no URL can hold. Frameworks build URLs from it, sometimes only on some paths (h3 does when it resolves encoded
 * dot segments), so it gets its own, frequent, slot rather than an occasional turn among the other headers.
 */
export const unusableHost: fc.Arbitrary<string[]> = fc.oneof(
  { weight: 9, arbitrary: fc.constant<string[]>([]) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("localhost:99999", "[::1]:70000", "a b", "ex@mple:1", "host:port", "%00", "", "[::1]x", "..")
      .map((host) => ["host", host]),
  },
);
