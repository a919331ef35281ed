import type { ObservationApi } from "../../../schemas/vocabularies.ts";
import { UpstreamDocumentError } from "./upstream-document-error.ts";

const DECIMAL_TEXT = /^[+-]?[0-9]+(\.[0-9]+)?$/;

/**
 * The publisher's value text exactly as written, or null for the publisher's own "no value" markers.
 * Anything else is not a number we can vouch for, so the document is refused rather than the cell guessed.
 */
export function publishedValue(
  api: ObservationApi,
  text: string,
  missingMarkers: readonly string[],
  where: string,
): string | null {
  if (missingMarkers.includes(text)) return null;
  if (!DECIMAL_TEXT.test(text))
    throw new UpstreamDocumentError(
      api,
      "malformed",
      `${where}: value ${JSON.stringify(text)} is not a decimal number`,
    );
  return text;
}
