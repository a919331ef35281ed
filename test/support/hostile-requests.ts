import fc from "fast-check";
import { cursorWire, hostileHeaderValue, hostileText, hostileWire, limitWire, rawFragment } from "./hostile-values.ts";
import type { Operation, OperationParameter } from "./openapi-operations.ts";
import { type KnownSlugs, validIshValue } from "./valid-ish-values.ts";

/**
 * Random and hostile requests aimed at one operation of the description: its path with good and bad slugs and
 * mangled segments, its parameters with plausible and hostile values (repeated, unknown, missing), every kind of key in
 * both header forms and broken ones, odd headers, and any method including tokens the HTTP parser has never heard of.
 */

export interface HostileRequest {
  operation: string;
  method: string;
  /** Exactly what goes on the request line. */
  path: string;
  /** Flat name/value pairs, so a header may repeat. */
  headers: string[];
  body?: string;
}

/** Secrets of real keys, by what they may do. `revoked` and `otherEnvironment` exist but must never authenticate. */
export type KeyRing = Record<
  "weather" | "economics" | "operator" | "everything" | "revoked" | "otherEnvironment",
  string
>;

const STANDARD_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"];
const ODD_METHODS = ["TRACE", "PROPFIND", "PURGE", "M-SEARCH", "FOO", "get", "QUERY", "LINK", "X"];

function methodFor(operation: Operation): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant(operation.method) },
    { weight: 2, arbitrary: fc.constantFrom(...STANDARD_METHODS) },
    { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) },
  );
}

/** The path template filled in, then sometimes mangled the ways path-handling code tends to get wrong. */
function pathFor(operation: Operation, slugs: KnownSlugs): fc.Arbitrary<string> {
  const slug = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...slugs.families, ...slugs.series) },
    { weight: 1, arbitrary: fc.stringMatching(/^[a-z0-9-]{1,40}$/) },
    { weight: 2, arbitrary: hostileWire },
  );
  const mangle = fc.constantFrom(
    "none",
    "none",
    "none",
    "none",
    "none",
    "none",
    "trailing-slash",
    "double-slash",
    "dot-segment",
    "encoded-dot-segment",
    "upper-case",
    "semicolon",
    "nul",
    "extra-segment",
    "encoded-slash",
  );
  return fc.record({ slug, mangle, fragment: rawFragment }).map(({ slug: value, mangle: how, fragment }) => {
    const path = operation.path.replace(/\{[^}]+\}/g, value);
    switch (how) {
      case "trailing-slash":
        return `${path}/`;
      case "double-slash":
        return path.replace("/v1/", "//v1/");
      case "dot-segment":
        return path.replace("/v1/", "/v1/../v1/");
      case "encoded-dot-segment":
        return path.replace("/v1/", "/v1/%2e%2e/v1/");
      case "upper-case":
        return path.toUpperCase();
      case "semicolon":
        return `${path};jsessionid=1`;
      case "nul":
        return `${path}%00`;
      case "extra-segment":
        return `${path}/${fragment}`;
      case "encoded-slash":
        return path.replace(/\/([^/]*)$/, "%2F$1");
      default:
        return path;
    }
  });
}

/** Paths that are no operation at all: random segments under the API prefixes, and traversal attempts. */
export const strayPath: fc.Arbitrary<string> = fc.oneof(
  fc
    .array(fc.oneof(fc.stringMatching(/^[a-z0-9._-]{1,16}$/), hostileWire), { minLength: 1, maxLength: 5 })
    .chain((segments) =>
      fc.constantFrom("/api/v1/", "/api/public/v1/", "/", "/api/").map((prefix) => prefix + segments.join("/")),
    ),
  fc.constantFrom(
    "/",
    "//",
    "/api",
    "/api/v1",
    "/api/v1/..%2f..%2fetc/passwd",
    "/api/v1/%2e%2e/%2e%2e/etc/passwd",
    "/..",
    "/%00",
    "/api/v1/economics/series/../../../../etc/passwd",
  ),
);

function valueFor(parameter: OperationParameter, slugs: KnownSlugs): fc.Arbitrary<string> {
  const special =
    parameter.name === "cursor"
      ? cursorWire
      : ["limit", "hours", "days", "perSeries"].includes(parameter.name)
        ? limitWire
        : hostileWire;
  return fc.oneof(
    { weight: 3, arbitrary: validIshValue(parameter, slugs) },
    { weight: 1, arbitrary: special },
    { weight: 1, arbitrary: hostileWire },
  );
}

/**
 * The query string: each declared parameter maybe present (required ones usually), sometimes repeated, plus, for
 * hostile requests, stray parameters and bare separators.
 */
function queryFor(
  operation: Operation,
  value: (parameter: OperationParameter) => fc.Arbitrary<string>,
  withStrays: boolean,
): fc.Arbitrary<string> {
  const declared = operation.parameters
    .filter((parameter) => parameter.in === "query")
    .map((parameter) =>
      fc
        .record({
          present: fc.double({ min: 0, max: 1, noNaN: true }).map((roll) => roll < (parameter.required ? 0.9 : 0.45)),
          values: fc.oneof(
            { weight: 6, arbitrary: value(parameter).map((one) => [one]) },
            { weight: withStrays ? 1 : 0, arbitrary: fc.array(value(parameter), { minLength: 2, maxLength: 3 }) },
          ),
        })
        .map(({ present, values }) => (present ? values.map((one) => `${parameter.name}=${one}`) : [])),
    );
  const strays = fc.array(
    fc.oneof(
      fc
        .tuple(
          fc.oneof(hostileWire, fc.constantFrom("__proto__", "constructor[prototype][x]", "limit[]", "a")),
          hostileWire,
        )
        .map(([name, one]) => `${name}=${one}`),
      fc.constantFrom("", "=", "&", "==x", "%ZZ", "a", "=%00"),
    ),
    { maxLength: withStrays ? 2 : 0 },
  );
  return fc.tuple(fc.tuple(...declared), strays).map(([pairs, extra]) => {
    const all = [...pairs.flat(), ...extra];
    return all.length > 0 ? `?${all.join("&")}` : "";
  });
}

/** None, each real key in either header form (or both, or the header twice), and keys that are broken or forged. */
function authFor(keys: KeyRing): fc.Arbitrary<string[]> {
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
const extraHeaders: fc.Arbitrary<string[]> = fc
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
const unusableHost: fc.Arbitrary<string[]> = fc.oneof(
  { weight: 9, arbitrary: fc.constant<string[]>([]) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("localhost:99999", "[::1]:70000", "a b", "ex@mple:1", "host:port", "%00", "", "[::1]x", "..")
      .map((host) => ["host", host]),
  },
);

const bodyArb: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom("{}", "not json", '{"__proto__":{"admin":true}}', "[".repeat(5000)),
  hostileText,
);

/** A hostile request for one operation. */
function hostileRequestFor(operation: Operation, slugs: KnownSlugs, keys: KeyRing): fc.Arbitrary<HostileRequest> {
  return fc
    .record({
      method: methodFor(operation),
      path: fc.oneof({ weight: 12, arbitrary: pathFor(operation, slugs) }, { weight: 1, arbitrary: strayPath }),
      query: queryFor(operation, (parameter) => valueFor(parameter, slugs), true),
      auth: authFor(keys),
      extra: extraHeaders,
      host: unusableHost,
      body: bodyArb,
    })
    .map(({ method, path, query, auth, extra, host, body }) => ({
      operation: operation.id,
      method,
      path: `${path}${query}`,
      // One Host at most: undici refuses a second.
      headers: [
        ...auth,
        ...(host.length > 0 ? [...extra.filter((_, index) => extra[index - (index % 2)] !== "host"), ...host] : extra),
      ],
      // GET and HEAD with a body are legal but pointless to a client; send bodies where they are usual.
      ...(body !== undefined && ["POST", "PUT", "PATCH", "DELETE"].includes(method) ? { body } : {}),
    }));
}

/** The keys an operation accepts; a public operation ignores whichever is sent. */
function keysAccepted(operation: Operation, keys: KeyRing): string[] {
  const valid = [keys.weather, keys.economics, keys.operator, keys.everything];
  if (operation.access === "OPERATOR") return [keys.operator, keys.everything];
  if (operation.scope === "weather:read") return [keys.weather, keys.everything];
  if (operation.scope === "economics:read") return [keys.economics, keys.everything];
  return valid;
}

/**
 * A request a real client could send (right method, unmangled path, plausible values, an accepted key), so a good share
 * of the run gets past validation and exercises the handlers, their paging and their bodies, not only the refusals.
 */
function plausibleRequestFor(operation: Operation, slugs: KnownSlugs, keys: KeyRing): fc.Arbitrary<HostileRequest> {
  const slug = fc.constantFrom(...(operation.path.includes("/series/") ? slugs.series : slugs.families));
  const auth = fc
    .record({ key: fc.constantFrom(...keysAccepted(operation, keys)), form: fc.boolean() })
    .map(({ key, form }) => (form ? ["authorization", `Bearer ${key}`] : ["x-api-key", key]));
  return fc
    .record({
      slug,
      query: queryFor(operation, (parameter) => validIshValue(parameter, slugs), false),
      auth: operation.access === "PUBLIC" ? fc.oneof(fc.constant<string[]>([]), auth) : auth,
      origin: fc.constantFrom<string[]>(
        [],
        [],
        ["origin", "https://app.example.com"],
        ["origin", "https://evil.example"],
      ),
    })
    .map(({ slug: value, query, auth: credentials, origin }) => ({
      operation: operation.id,
      method: operation.method,
      path: `${operation.path.replace(/\{[^}]+\}/g, value)}${query}`,
      headers: [...credentials, ...origin],
    }));
}

/** Two in five requests are plausible, the rest hostile. */
export function requestFor(operation: Operation, slugs: KnownSlugs, keys: KeyRing): fc.Arbitrary<HostileRequest> {
  return fc.oneof(
    { weight: 2, arbitrary: plausibleRequestFor(operation, slugs, keys) },
    { weight: 3, arbitrary: hostileRequestFor(operation, slugs, keys) },
  );
}

/** Requests for every operation, each equally likely, so no operation is starved by the size of another's parameters. */
export function hostileRequests(
  operations: Operation[],
  slugs: KnownSlugs,
  keys: KeyRing,
): fc.Arbitrary<HostileRequest> {
  return fc.oneof(...operations.map((operation) => requestFor(operation, slugs, keys)));
}
