import { enumOf, int, num, str } from "../json-schema.ts";
import { COORDINATES, type PageLimit } from "../limits.ts";
import { SLUG_PATTERN } from "../vocabularies.ts";
import type { ParameterSpec } from "./route-spec.ts";

/** Parameter descriptions shared by many routes, phrased once. */

/** A count read by parseLimit (server/http/params.ts): `limit`, or another count such as `hours`. */
export function limitParameter(limit: PageLimit, what = "page size", name = "limit"): ParameterSpec {
  return {
    name,
    in: "query",
    required: false,
    description: `${what}: default ${limit.default}, clamped to ${limit.max}; empty is the default. Read as a base-ten integer prefix (3.7 reads as 3); below 1 or not starting with an integer gives VALIDATION_FAILED.`,
    schema: int({
      minimum: 1,
      default: limit.default,
      examples: [Math.min(limit.max, Math.max(2, Math.ceil(limit.default / 2)))],
    }),
  };
}

/** A reference-period bound of the observations routes, compared as a string. */
export function periodParameter(name: "from" | "to", description: string, example: string): ParameterSpec {
  return {
    name,
    in: "query",
    required: false,
    description,
    schema: str({ examples: [example] }),
  };
}

export const cursorParameter: ParameterSpec = {
  name: "cursor",
  in: "query",
  required: false,
  description:
    "Opaque token taken verbatim from meta.nextCursor; valid only with identical filters. Undecodable gives VALIDATION_FAILED; past the end gives an empty page.",
  // The token of the page after the first ten items (server/http/params.ts encodeCursor).
  schema: str({ examples: ["bzoxMA"] }),
};

/** What every `tz` accepts (server/http/params.ts parseZone). */
const TZ_NAME_RULE =
  "A name of the IANA time zone database (a zone or a link), in any ASCII case and answered as the database spells it (a link stays a link); names only ICU knows, such as PST or SystemV/EST5, give VALIDATION_FAILED.";

/** `tz` where its absence means no local projection, so it has no default (bare dates are then read in UTC). */
export function tzParameter(description: string): ParameterSpec {
  return {
    name: "tz",
    in: "query",
    required: false,
    description: `${description} ${TZ_NAME_RULE}`,
    schema: str({ examples: ["Europe/Oslo"] }),
  };
}

/**
 * `tz` on the weather forecast routes: an IANA zone as everywhere, or `auto` for the zone of the point
 * (server/weather/location-params.ts), which the answer states.
 */
export function forecastTzParameter(description: string, timeZoneField: string): ParameterSpec {
  return {
    name: "tz",
    in: "query",
    required: false,
    description: `${description} \`auto\` (any case) assembles the days in the IANA zone of the served point, found offline from time zone boundaries (at sea the nautical Etc/GMT±N zone of its longitude); every other value must be an IANA zone, else VALIDATION_FAILED. ${TZ_NAME_RULE} ${timeZoneField} states the zone used.`,
    schema: str({ default: "UTC", examples: ["Europe/Oslo", "auto"] }),
  };
}

export function listParameter(name: string, max: number, description: string, example: string): ParameterSpec {
  return {
    name,
    in: "query",
    required: false,
    description: `${description} Comma-separated, at most ${max} values; more gives VALIDATION_FAILED.`,
    schema: str({ examples: [example] }),
  };
}

export function enumListParameter(
  name: string,
  values: readonly string[],
  max: number,
  caseRule: string,
): ParameterSpec {
  return {
    name,
    in: "query",
    required: false,
    description: `Comma-separated, at most ${max} of: ${values.join(", ")} (${caseRule}). An unknown value gives VALIDATION_FAILED.`,
    schema: str({ examples: [values.slice(0, 2).join(",")] }),
  };
}

export function enumParameter(name: string, values: readonly string[], description: string): ParameterSpec {
  return { name, in: "query", required: false, description, schema: { ...enumOf(values), examples: [values[0]] } };
}

export function slugPathParameter(description: string, example: string): ParameterSpec {
  return {
    name: "slug",
    in: "path",
    required: true,
    description,
    schema: str({ pattern: SLUG_PATTERN, examples: [example] }),
  };
}

export function coordinateParameters(decimals: number, errorCode: string): ParameterSpec[] {
  return [
    {
      name: "lat",
      in: "query",
      required: true,
      description: `WGS 84 latitude, rounded to ${decimals} decimals. Non-numeric or out of range gives ${errorCode}.`,
      schema: num({ minimum: COORDINATES.latitude.min, maximum: COORDINATES.latitude.max, examples: [59.9139] }),
    },
    {
      name: "lon",
      in: "query",
      required: true,
      description: `WGS 84 longitude, rounded to ${decimals} decimals. Non-numeric or out of range gives ${errorCode}.`,
      schema: num({ minimum: COORDINATES.longitude.min, maximum: COORDINATES.longitude.max, examples: [10.7522] }),
    },
    {
      name: "altitude",
      in: "query",
      required: false,
      description: `Metres, rounded to a whole number. Omitted, the provider infers it. Outside ${COORDINATES.altitude.min}..${COORDINATES.altitude.max} gives ${errorCode}.`,
      schema: num({ minimum: COORDINATES.altitude.min, maximum: COORDINATES.altitude.max, examples: [23] }),
    },
  ];
}

export const unitsParameter: ParameterSpec = {
  name: "units",
  in: "query",
  required: false,
  description:
    "Exactly the case-sensitive string `imperial` selects imperial units; any other value, or none, gives metric. Never an error.",
  schema: str({ examples: ["imperial"] }),
};
