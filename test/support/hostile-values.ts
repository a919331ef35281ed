import fc from "fast-check";

/**
 * Hostile values at the level of the bytes on the wire. Request paths are sent exactly as generated (undici does not
 * normalise them), so everything here is either percent-encoded text or a raw fragment chosen to break decoders.
 */

/** What each byte becomes on the wire: unreserved characters as themselves, everything else as %XX. */
const BYTE_ON_WIRE = Array.from({ length: 256 }, (_, byte) => {
  const char = String.fromCharCode(byte);
  return /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
});

/** Percent-encodes every byte outside the unreserved set, so any text (astral, RTL, NUL) survives as written. */
export function percentEncode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) out += BYTE_ON_WIRE[byte];
  return out;
}

const SQL = [
  "' OR 1=1 --",
  "'; DROP TABLE events; --",
  '" OR ""="',
  "1' UNION SELECT sql FROM sqlite_master --",
  "%' AND '%'='",
  "')--",
  "*",
  "\\",
];
const PATHS = ["../", "../../etc/passwd", "..\\..\\windows", "//", "/", "./", "....//", "~"];
const TEMPLATES = [
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal text of a template injection, meant as data
  "${7*7}",
  "{{7*7}}",
  "%s%s%n",
  "<script>alert(1)</script>",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
];
const NUMBERS = [
  "-1",
  "0",
  "-0",
  "1e308",
  "1e-9",
  "9".repeat(30),
  "NaN",
  "Infinity",
  "-Infinity",
  "0x1F",
  "3.7",
  "+5",
  " 5",
  "5 ",
  "1,2",
  "١٢٣",
  "５",
];
const UNICODE = [
  "\u202Eevil\u202C",
  "\u200Fمرحبا",
  "e\u0301\u0301\u0301\u0301",
  "\u200B",
  "\uFEFF",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  "👩‍👩‍👧",
  "İ",
  "ß",
  "\u0000",
  "\r\n",
  "\t",
  "Zürich",
  "Tromsø",
];

/** Decoded-level text: short random text of every kind, the classic attack strings, and long runs up to 20 KB. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: "binary", maxLength: 24 }) },
  { weight: 8, arbitrary: fc.string({ unit: "grapheme-composite", maxLength: 12 }) },
  { weight: 8, arbitrary: fc.constantFrom(...SQL, ...PATHS, ...TEMPLATES, ...NUMBERS, ...UNICODE) },
  // Rare, since a request holds many values: often enough to probe every length limit, not so often that most
  // requests are refused by Node's 16 KB header limit before the service sees them.
  {
    weight: 1,
    arbitrary: fc
      .record({
        unit: fc.constantFrom("a", "é", "𝔘", "\u0301", "%", "'"),
        length: fc.integer({ min: 500, max: 20_000 }),
      })
      .map(({ unit, length }) => unit.repeat(Math.floor(length / unit.length))),
  },
);

/** Fragments sent raw: NULs, broken and overlong percent escapes, encoded dot segments, separators, a raw Latin-1 byte. */
export const rawFragment: fc.Arbitrary<string> = fc.constantFrom(
  "%00",
  "%ZZ",
  "%E0%A4",
  "%",
  "%%",
  "%C0%AF",
  "%FF%FE",
  "%ED%A0%80",
  "%2e%2e%2f",
  "%2F",
  "%252e",
  "+",
  "&",
  "=",
  ";",
  "%23",
  "#frag",
  "\xe9",
  "%0d%0a",
);

/** A query value or path segment as it goes on the wire. */
export const hostileWire: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: hostileText.map(percentEncode) },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.oneof(rawFragment, hostileText.map(percentEncode)), { minLength: 1, maxLength: 4 })
      .map((parts) => parts.join("")),
  },
);

const base64url = (text: string | Uint8Array) => Buffer.from(text).toString("base64url");

/** Paging tokens: valid ones, forged ones (offsets out of range, other prefixes, random bytes) and tampered ones. */
export const cursorWire: fc.Arbitrary<string> = fc.oneof(
  fc.nat({ max: 200 }).map((offset) => base64url(`o:${offset}`)),
  fc
    .constantFrom("o:-1", "o:99999999999", "o:999999999", "o:00", "o:1e3", "o: 5", "o:5\n", "x:5", "o:", "")
    .map(base64url),
  fc.uint8Array({ maxLength: 64 }).map(base64url),
  hostileText.map((text) => base64url(text.slice(0, 200))),
  fc.nat({ max: 50 }).map((offset) => percentEncode(Buffer.from(`o:${offset}`).toString("base64"))),
  fc
    .record({ offset: fc.nat({ max: 50 }), flip: fc.nat(), extra: fc.constantFrom("", "=", "==", "A", "%3D") })
    .map(({ offset, flip, extra }) => {
      const cursor = base64url(`o:${offset}`);
      const at = flip % cursor.length;
      return `${cursor.slice(0, at)}${cursor[at] === "A" ? "B" : "A"}${cursor.slice(at + 1)}${extra}`;
    }),
  hostileWire,
);

/** Page sizes: ordinary, huge, negative, fractional, exponent and non-numeric. */
export const limitWire: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -5, max: 400 }).map(String) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "9".repeat(40),
      "9".repeat(400),
      "2147483648",
      "-2147483649",
      "3.7",
      "0.5",
      "-0.5",
      "1e3",
      "1E-2",
      "0x10",
      "%207",
      "7abc",
      "",
      "NaN",
      "Infinity",
      "1%00",
    ),
  },
  { weight: 1, arbitrary: fc.double().map((value) => percentEncode(String(value))) },
  { weight: 1, arbitrary: hostileWire },
);

/** Header values undici will send: any text, written as its UTF-8 bytes read as Latin-1, control characters removed. */
export const hostileHeaderValue: fc.Arbitrary<string> = hostileText.map((text) =>
  Buffer.from(text, "utf8")
    .toString("latin1")
    .replace(/[^\t\x20-\x7e\x80-\xff]/g, "")
    .trim(),
);
