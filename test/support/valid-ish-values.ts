import fc from "fast-check";
import { cursorWire, limitWire, percentEncode } from "./hostile-values.ts";
import type { OperationParameter } from "./openapi-operations.ts";

/**
 * Values a real client might send for each parameter, so that requests get past validation and into the handlers,
 * where the interesting failures are; near misses (wrong case, a day that does not exist) are mixed in on purpose.
 */

export interface KnownSlugs {
  families: string[];
  series: string[];
  releases: string[];
}

/**
 * Few weather points on purpose: every new point is a MET call, and the service keeps MET calls under 20 per second,
 * so a wide spread of valid points would spend the run waiting on that gate rather than attacking the service.
 */
const LATITUDES = ["59.91", "51.5", "-33.87", "90", "+59.910", "59.9100"];
const LONGITUDES = ["10.75", "-0.1", "151.21", "-180", "10.750"];
const ZONES = [
  "UTC",
  "Europe/Oslo",
  "America/New_York",
  "Asia/Kolkata",
  "Pacific/Chatham",
  "Etc/GMT+12",
  "utc",
  "europe/oslo",
  "Europe/Nowhere",
  "+01:00",
  "Z",
];
const PLACES = ["zur", "tromso", "São", "sao paulo", "os", "a", "OSLO", "ber"];

/** Vocabularies the description spells out ("at most 5 of: a, b, c (…)" or "(a, b, c)"), since list parameters carry no enum. */
function vocabularyOf(parameter: OperationParameter): string[] {
  if (parameter.schema.enum) return parameter.schema.enum;
  const listed =
    /of: ([^()]+) \(/.exec(parameter.description) ??
    /\(([A-Za-z0-9_-]+(?:, [A-Za-z0-9_-]+)+)\)/.exec(parameter.description);
  return listed ? listed[1]!.split(", ").map((value) => value.trim()) : [];
}

/** One to three entries of a vocabulary joined by commas, sometimes in the wrong case. */
function listOf(values: string[]): fc.Arbitrary<string> {
  return fc
    .record({
      picked: fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: 3 }),
      caseChange: fc.constantFrom("as-is", "as-is", "lower", "upper"),
    })
    .map(({ picked, caseChange }) => {
      const joined = picked.join(",");
      return percentEncode(
        caseChange === "lower" ? joined.toLowerCase() : caseChange === "upper" ? joined.toUpperCase() : joined,
      );
    });
}

/** Calendar dates and instants around the sample data, plus reference-period codes and dates that do not exist. */
const dateWire: fc.Arbitrary<string> = fc
  .oneof(
    fc
      .date({ min: new Date("2024-01-01T00:00:00Z"), max: new Date("2027-12-31T00:00:00Z"), noInvalidDate: true })
      .chain((date) =>
        fc.constantFrom(
          date.toISOString().slice(0, 10),
          date.toISOString(),
          `${date.toISOString().slice(0, 19)}+05:30`,
          date.toISOString().slice(0, 19),
          date.toISOString().slice(0, 7),
        ),
      ),
    fc.constantFrom(
      "2025-Q3",
      "2025-02-30",
      "2025-13-01",
      "0000-01-01",
      "9999-12-31",
      "2025-W40",
      "2025-06-01T25:00:00Z",
    ),
  )
  .map(percentEncode);

export function validIshValue(parameter: OperationParameter, slugs: KnownSlugs): fc.Arbitrary<string> {
  const vocabulary = vocabularyOf(parameter);
  switch (parameter.name) {
    case "lat":
      return fc.constantFrom(...LATITUDES).map(percentEncode);
    case "lon":
      return fc.constantFrom(...LONGITUDES).map(percentEncode);
    case "altitude":
      return fc.constantFrom("25", "100", "-500", "9000", "25.4");
    case "tz":
      return fc.constantFrom(...ZONES).map(percentEncode);
    case "from":
    case "to":
      return dateWire;
    case "q":
      return fc.constantFrom(...PLACES).map(percentEncode);
    case "units":
      return fc.constantFrom("imperial", "metric", "IMPERIAL", "");
    case "cursor":
      return cursorWire;
    case "limit":
    case "hours":
    case "days":
    case "perSeries":
      return fc.oneof(fc.integer({ min: 1, max: 60 }).map(String), limitWire);
    case "timezone":
      return fc.constantFrom("1", "true", "", "Europe/Oslo");
    case "indicator":
    case "slug":
      return fc.constantFrom(...slugs.families, ...slugs.series);
    case "series":
      return parameter.description.includes("Comma") ? listOf(slugs.series) : fc.constantFrom(...slugs.series);
    case "release":
    case "releaseFamily":
      return listOf(slugs.releases);
    case "country":
      return listOf(["US", "DE", "GB", "FR", "EU", "JP", "us"]);
    case "currency":
      return listOf(["USD", "EUR", "GBP", "XXX"]);
    default:
      return vocabulary.length > 0
        ? listOf(vocabulary)
        : fc.string({ unit: "grapheme-ascii", maxLength: 12 }).map(percentEncode);
  }
}
