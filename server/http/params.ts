import type { PageLimit } from "../../schemas/limits.ts";
import { isKnownZone } from "../time/zone-clock.ts";
import { tzDatabaseName } from "../time/zone-names.ts";
import { ApiError } from "./api-error.ts";

/** Parameter rules shared by many routes (spec "Endpoints" and "Limits"), each defined once. */

function invalid(message: string): ApiError {
  return new ApiError("VALIDATION_FAILED", message);
}

/** A parameter's value, trimmed; null when absent or blank (the one rule: `from=%20` is `from=`). */
export function givenValue(raw: string | null): string | null {
  if (raw === null) return null;
  const text = raw.trim();
  return text === "" ? null : text;
}

/** Base-ten integer prefix ("3.7" reads as 3); below 1 or no integer is refused; above the maximum clamped. */
export function parseLimit(raw: string | null, limit: PageLimit, name = "limit"): number {
  const text = givenValue(raw);
  if (text === null) return limit.default;
  // Past 308 digits it reads as Infinity: clamped like any other.
  const value = Number.parseInt(text, 10);
  if (Number.isNaN(value) || value < 1) throw invalid(`${name} must be an integer of at least 1.`);
  return Math.min(value, limit.max);
}

/** Comma list, blanks dropped; more than `max` values is refused. Null when the parameter is absent or empty. */
export function parseList(raw: string | null, max: number, name: string): string[] | null {
  if (raw === null) return null;
  const values = raw
    .split(",")
    .map((value) => value.trim())
    .filter((value) => value !== "");
  if (values.length === 0) return null;
  if (values.length > max) throw invalid(`${name} accepts at most ${max} values.`);
  return values;
}

/** A closed vocabulary, matched case-insensitively and returned in its canonical spelling. */
export function parseEnumList<T extends string>(
  raw: string | null,
  vocabulary: readonly T[],
  max: number,
  name: string,
): T[] | null {
  const values = parseList(raw, max, name);
  return values === null ? null : values.map((value) => canonicalEnum(value, vocabulary, name));
}

export function parseEnum<T extends string>(raw: string | null, vocabulary: readonly T[], name: string): T | null {
  const text = givenValue(raw);
  return text === null ? null : canonicalEnum(text, vocabulary, name);
}

function canonicalEnum<T extends string>(value: string, vocabulary: readonly T[], name: string): T {
  const found = vocabulary.find((entry) => entry.toLowerCase() === value.toLowerCase());
  if (found === undefined) throw invalid(`${name} has an unknown value.`);
  return found;
}

/** Whether a parameter was given (present and not blank): a `tz` or `timezone` that was asks for a local projection. */
export function isGiven(raw: string | null): boolean {
  return givenValue(raw) !== null;
}

/** A tz database name (zone or link) in any case, in the database's spelling (one ETag per zone); UTC when blank. */
export function parseZone(raw: string | null): string {
  const text = givenValue(raw);
  if (text === null) return "UTC";
  const name = tzDatabaseName(text);
  if (name === undefined || !isKnownZone(name)) throw invalid("tz is not a name of the IANA time zone database.");
  return name;
}

const CURSOR_PREFIX = "o:";
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const CURSOR_TEXT = /^o:(0|[1-9][0-9]{0,8})$/;

/** Cursors are opaque to clients: an offset into the filtered set, base64url-encoded. */
export function encodeCursor(offset: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${offset}`, "utf8").toString("base64url");
}

export function decodeCursor(raw: string | null): number {
  const token = givenValue(raw);
  if (token === null) return 0;
  const text = BASE64URL.test(token) ? Buffer.from(token, "base64url").toString("utf8") : "";
  const match = CURSOR_TEXT.exec(text);
  if (!match) throw invalid("cursor is not a valid paging token.");
  return Number(match[1]);
}

/** SQL readers fetch one row beyond the page, to learn whether another page follows without counting. */
export function splitPage<T>(rows: T[], limit: number): { rows: T[]; more: boolean } {
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}

/** The cursor of the page after `served` items from `offset`, or null when nothing follows. */
export function cursorAfter(offset: number, served: number, more: boolean): string | null {
  return more ? encodeCursor(offset + served) : null;
}
