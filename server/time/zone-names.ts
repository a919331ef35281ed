import { TZ_DATABASE_NAMES } from "../../schemas/tz-database-names.ts";

// Names `tz` may take: the tz database's zones and links, and any zone Node's ICU lists that the database list lacks
// yet. Names ICU computes of its own (`SystemV/EST5`, `PST`) are no zone of the database and are refused.

/** Printable ASCII, as every tz name is: checked before lower-casing, which maps the Kelvin sign onto `k`. */
const ASCII_NAME = /^[\x21-\x7e]+$/;

/** Each name under its lower-case form; the database's spelling comes first, so it is the one answered. */
const namesByLowerCase = new Map<string, string>();
for (const name of [...TZ_DATABASE_NAMES, ...Intl.supportedValuesOf("timeZone")]) {
  if (!namesByLowerCase.has(name.toLowerCase())) namesByLowerCase.set(name.toLowerCase(), name);
}

/**
 * The tz database's spelling of `text`, matched in any ASCII case; undefined for anything else. A link stays a link.
 */
export function tzDatabaseName(text: string): string | undefined {
  return ASCII_NAME.test(text) ? namesByLowerCase.get(text.toLowerCase()) : undefined;
}
