import type { UpstreamSource } from "../records.ts";
import { DOCUMENT_FAILURES } from "./document-failures.ts";
import { UpstreamDocumentError } from "./upstream-document-error.ts";

/**
 * Publisher documents arrive as bytes; all of ours are UTF-8, and a byte-order mark is not content. A document with
 * nothing in it is refused here, for every source alike, before any format is tried on it.
 */
export function documentText(source: UpstreamSource, document: string | Buffer): string {
  const decoded = typeof document === "string" ? document : document.toString("utf8");
  const text = decoded.startsWith("\uFEFF") ? decoded.slice(1) : decoded;
  if (!/\S/.test(text)) throw new UpstreamDocumentError(source, "malformed", DOCUMENT_FAILURES.empty);
  return text;
}

/** A JSON document read with `parse` (JSON.parse, or a lossless reader for publishers' numbers). */
export function jsonDocument<T>(source: UpstreamSource, document: string | Buffer, parse: (text: string) => T): T {
  const text = documentText(source, document);
  try {
    return parse(text);
  } catch {
    throw new UpstreamDocumentError(source, "malformed", DOCUMENT_FAILURES.notJson);
  }
}

/**
 * A publisher's HTML page must arrive whole: a page cut after its list would read as a shorter calendar, and the
 * events it lost would look removed by the publisher.
 */
export function wholeHtmlPage(source: UpstreamSource, text: string): string {
  if (!/<\/html>\s*$/i.test(text))
    throw new UpstreamDocumentError(source, "malformed", DOCUMENT_FAILURES.truncatedHtml);
  return text;
}

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00A0" };

/**
 * Numeric references and the few named ones these publishers use (Eurostat titles carry `&#8211;`, `&#8212;`,
 * `&amp;`). An unknown named entity is left as written rather than guessed.
 */
export function decodeHtmlEntities(text: string): string {
  return text.replace(/&(#[0-9]+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body.startsWith("#")) {
      const codePoint = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : whole;
    }
    return NAMED_ENTITIES[body] ?? whole;
  });
}

/** Text taken out of HTML markup: tags dropped, entities decoded, whitespace runs (line breaks of the markup) made single spaces. */
export function htmlFragmentText(html: string): string {
  return decodeHtmlEntities(html.replace(/<[^>]*>/g, " "))
    .replace(/\s+/g, " ")
    .trim();
}
