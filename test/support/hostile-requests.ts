import fc from "fast-check";
import { authFor, extraHeaders, type KeyRing, unusableHost } from "./hostile-headers.ts";
import { cursorWire, hostileText, hostileWire, limitWire, rawFragment } from "./hostile-values.ts";
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

export type { KeyRing } from "./hostile-headers.ts";

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
