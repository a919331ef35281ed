import { REGISTRY_SEARCH } from "../../schemas/limits.ts";
import type { BuiltRegistry, IndicatorFamily, Series } from "../../schemas/registry.ts";
import { ApiError } from "../http/api-error.ts";
import { givenValue } from "../http/params.ts";

/**
 * `q=` on the series and indicator listings, as docs/api.md ("Searching: `q=`") states it: every query word must match
 * a field, and scores the weight of the best field it matches; higher totals first, equal totals in registry order.
 */
const WEIGHTS = { name: 4, slug: 3, publisher: 2, scope: 1 } as const;
type SearchFields = Record<keyof typeof WEIGHTS, string>;
const FIELD_NAMES = Object.keys(WEIGHTS) as (keyof SearchFields)[];

/** Words of a text: lower case, accents set aside, split at anything but letters and digits. */
function wordsOf(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "");
}

/** The query words of `q`, null when it is absent or blank; too long, too many words or none is VALIDATION_FAILED. */
export function parseSearch(raw: string | null): string[] | null {
  const text = givenValue(raw);
  if (text === null) return null;
  // Characters are code points, as for the place search's `q`: a letter outside the BMP counts once.
  if ([...text].length > REGISTRY_SEARCH.maxCharacters)
    throw new ApiError("VALIDATION_FAILED", `q is longer than ${REGISTRY_SEARCH.maxCharacters} characters.`);
  const words = [...new Set(wordsOf(text))];
  if (words.length === 0) throw new ApiError("VALIDATION_FAILED", "q holds no word (letters or digits).");
  if (words.length > REGISTRY_SEARCH.maxWords)
    throw new ApiError("VALIDATION_FAILED", `q holds more than ${REGISTRY_SEARCH.maxWords} words.`);
  return words;
}

/** The records every word matches, best first (see above); `records` unchanged when there are no words. */
function ranked<T>(records: readonly T[], words: string[] | null, fieldsOf: (record: T) => SearchFields): T[] {
  if (words === null) return [...records];
  const scored: { record: T; score: number; at: number }[] = [];
  records.forEach((record, at) => {
    const fields = fieldsOf(record);
    const fieldWords = FIELD_NAMES.map((name) => [name, wordsOf(fields[name])] as const);
    let score = 0;
    for (const word of words) {
      let best = 0;
      for (const [name, candidates] of fieldWords) {
        if (WEIGHTS[name] > best && candidates.some((candidate) => candidate.startsWith(word))) best = WEIGHTS[name];
      }
      if (best === 0) return;
      score += best;
    }
    scored.push({ record, score, at });
  });
  return scored.sort((a, b) => b.score - a.score || a.at - b.at).map((entry) => entry.record);
}

export function searchSeries(series: readonly Series[], words: string[] | null): Series[] {
  return ranked(series, words, (entry) => entry);
}

/** A family's publishers are those of its active series; its scope is its description. */
export function searchFamilies(
  registry: BuiltRegistry,
  families: readonly IndicatorFamily[],
  words: string[] | null,
): IndicatorFamily[] {
  return ranked(families, words, (family) => ({
    name: family.name,
    slug: family.slug,
    publisher: [
      ...new Set(
        registry.series.filter((entry) => entry.familySlug === family.slug && entry.active).map((s) => s.publisher),
      ),
    ].join(" "),
    scope: family.description,
  }));
}
