// What a request's log line may say of the request it names: its path and query without secrets, as JSON string text.

/** Names of query parameters whose values are never logged. */
const SECRET_WORDS = "key|token|secret|passw|pwd|auth|bearer|jwt|sig|credential|session";
const SECRET_NAME = new RegExp(SECRET_WORDS, "i");
/** An API key of ours (api-keys.ts) wherever it appears: its id is kept, the secret part never logged. */
const KEY_SECRET = /(svc_[0-9a-f]{16}_)[A-Za-z0-9_-]+/g;
const KEY_ID = /svc_[0-9a-f]{16}_/;
/** What makes a query worth reading pair by pair: a secret-like name, a key, or percent-encoding hiding either. */
const MAY_HOLD_SECRET = new RegExp(`${SECRET_WORDS}|svc_|%`, "i");
const REDACTED = "REDACTED";

/**
 * The query as a log line may show it: credential-like parameters' values and any API key's secret part replaced by
 * `REDACTED`. The API never reads a key from the query, but a client may still put one there.
 */
export function loggedQuery(search: string): string {
  const query = search.startsWith("?") ? search.slice(1) : search;
  if (query === "" || !MAY_HOLD_SECRET.test(query)) return query;
  return query
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      if (equals !== -1 && SECRET_NAME.test(decoded(pair.slice(0, equals))))
        return `${withoutKeySecrets(pair.slice(0, equals))}=${REDACTED}`;
      return withoutKeySecrets(pair);
    })
    .join("&");
}

/** The path as a log line may show it: any API key in it reduced to its id. */
export function loggedPath(path: string): string {
  return path.includes("svc_") || path.includes("%") ? withoutKeySecrets(path) : path;
}

/** `text` with the secret part of any API key in it, percent-encoded or not, replaced (decoded where one was). */
function withoutKeySecrets(text: string): string {
  const raw = KEY_ID.test(text) ? text.replace(KEY_SECRET, `$1${REDACTED}`) : text;
  if (!raw.includes("%")) return raw;
  const plain = decoded(raw);
  return KEY_ID.test(plain) ? plain.replace(KEY_SECRET, `$1${REDACTED}`) : raw;
}

/**
 * `text` as the inside of an ASCII JSON string: itself when it needs no escaping (as URL paths and queries do not, in
 * practice: a query can keep a backslash).
 */
export function jsonStringText(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return escaped(text);
  }
  return text;
}

function escaped(text: string): string {
  return JSON.stringify(text)
    .slice(1, -1)
    .replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** `text` percent-decoded up to three times (a client may encode twice). */
function decoded(text: string): string {
  let plain = text.replaceAll("+", " ");
  for (let round = 0; round < 3 && plain.includes("%"); round++) {
    try {
      plain = decodeURIComponent(plain);
    } catch {
      break;
    }
  }
  return plain;
}
