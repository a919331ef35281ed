import type { PageLimit } from "../../schemas/limits.ts";
import { isKnownZone } from "../time/zone-clock.ts";
import { tzDatabaseName } from "../time/zone-names.ts";
import { ApiError } from "./api-error.ts";

/** Parameter rules shared by many routes (spec "Endpoints" and "Limits"), each defined once. */

function invalid(message: string): ApiError {
  return new ApiError("VALIDATION_FAILED", message);
}

/** Base-ten integer prefix ("3.7" reads as 3); below 1 or not starting with an integer is refused; above the maximum is clamped. */
export function parseLimit(raw: string | null, limit: PageLimit, name = "limit"): number {
  if (raw === null || raw === "") return limit.default;
  const value = Number.parseInt(raw, 10);
  if (!Number.isFinite(value) || value < 1) throw invalid(`${name} must be an integer of at least 1.`);
  return Math.min(value, limit.max);
}

/** Comma list, blanks dropped; more than `max` values is refused. Null when the parameter is absent or empty. */
export function parseList(raw: string | null, max: number, name: string): string[] | null {
  if (raw === null) return null;
  const values = raw.split(",").map((value) => value.trim()).filter((value) => value !== "");
  if (values.length === 0) return null;
  if (values.length > max) throw invalid(`${name} accepts at most ${max} values.`);
  return values;
}

/** A closed vocabulary, matched case-insensitively and returned in its canonical spelling. */
export function parseEnumList<T extends string>(raw: string | null, vocabulary: readonly T[], max: number, name: string): T[] | null {
  const values = parseList(raw, max, name);
  return values === null ? null : values.map((value) => canonicalEnum(value, vocabulary, name));
}

export function parseEnum<T extends string>(raw: string | null, vocabulary: readonly T[], name: string): T | null {
  if (raw === null || raw.trim() === "") return null;
  return canonicalEnum(raw.trim(), vocabulary, name);
}

function canonicalEnum<T extends string>(value: string, vocabulary: readonly T[], name: string): T {
  const found = vocabulary.find((entry) => entry.toLowerCase() === value.toLowerCase());
  if (found === undefined) throw invalid(`${name} has an unknown value.`);
  return found;
}

/** Whether a `tz` was given, which asks for a local projection: present and not blank (parseZone reads blank as absent). */
export function tzGiven(raw: string | null): boolean {
  return raw !== null && raw.trim() !== "";
}

/**
 * A name of the tz database (a zone or a link), in any ASCII case, answered in the database's spelling, so that every
 * spelling of a zone gives the same answer and ETag; UTC when absent or blank.
 */
export function parseZone(raw: string | null): string {
  const text = raw?.trim() ?? "";
  if (text === "") return "UTC";
  const name = tzDatabaseName(text);
  if (name === undefined || !isKnownZone(name)) throw invalid("tz is not a name of the IANA time zone database.");
  return name;
}

const CURSOR_PREFIX = "o:";

/** Cursors are opaque to clients: an offset into the filtered set, base64url-encoded. */
export function encodeCursor(offset: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${offset}`, "utf8").toString("base64url");
}

export function decodeCursor(raw: string | null): number {
  if (raw === null || raw === "") return 0;
  const text = /^[A-Za-z0-9_-]+$/.test(raw) ? Buffer.from(raw, "base64url").toString("utf8") : "";
  const match = /^o:(0|[1-9][0-9]{0,8})$/.exec(text);
  if (!match) throw invalid("cursor is not a valid paging token.");
  return Number(match[1]);
}

/** One page of an already filtered list, with the cursor of the next page or null at the end. */
export function pageOf<T>(items: readonly T[], offset: number, limit: number): { items: T[]; nextCursor: string | null } {
  const page = items.slice(offset, offset + limit);
  const next = offset + page.length;
  return { items: page, nextCursor: page.length > 0 && next < items.length ? encodeCursor(next) : null };
}

/** SQL readers fetch one row beyond the page, to learn whether another page follows without counting. */
export function splitPage<T>(rows: T[], limit: number): { rows: T[]; more: boolean } {
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}

/** The cursor of the page after `served` items from `offset`, or null when nothing follows. */
export function cursorAfter(offset: number, served: number, more: boolean): string | null {
  return more ? encodeCursor(offset + served) : null;
}
