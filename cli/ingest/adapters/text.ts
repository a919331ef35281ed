import type { UpstreamSource } from "../records.ts";
import { UpstreamDocumentError } from "./upstream-document-error.ts";

/** Publisher documents arrive as bytes; all of ours are UTF-8, and a byte-order mark is not content. */
export function documentText(document: string | Buffer): string {
  const text = typeof document === "string" ? document : document.toString("utf8");
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}

/**
 * A publisher's HTML page must arrive whole: a page cut after its list would read as a shorter calendar, and the
 * events it lost would look removed by the publisher.
 */
export function wholeHtmlPage(source: UpstreamSource, text: string): string {
  if (!/<\/html>\s*$/i.test(text))
    throw new UpstreamDocumentError(source, "malformed", "the page is truncated (no closing </html>)");
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
