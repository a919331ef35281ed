/** Letters that Unicode does not decompose into a base letter and an accent, so NFKD alone leaves them. */
const UNDECOMPOSABLE: Record<string, string> = {
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  ħ: "h",
  ı: "i",
  ŧ: "t",
  ə: "e",
  ß: "ss",
  æ: "ae",
  œ: "oe",
  þ: "th",
};

/**
 * The form in which names are indexed and queries are matched, so "tromso" finds Tromsø and "lodz" finds Łódź.
 * SQLite's `remove_diacritics 2` handles only letters that decompose; the build and the query must fold alike.
 * Only the Latin combining accents (U+0300–U+036F) are removed: marks of other scripts are part of their letters.
 */
export function foldPlaceName(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[øłđðħıŧəßæœþ]/g, (letter) => UNDECOMPOSABLE[letter]!);
}
