import { XMLParser } from "fast-xml-parser";
import type { NewsFeed } from "../../../schemas/vocabularies.ts";
import { DOCUMENT_FAILURES } from "./document-failures.ts";
import { documentText, htmlFragmentText } from "./text.ts";
import { UpstreamDocumentError } from "./upstream-document-error.ts";

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  textNodeName: "#text",
  processEntities: true,
  htmlEntities: true,
  // Text stays text: a guid or id like "007" or a long digit string is an identity, not a number to re-format.
  parseTagValue: false,
  isArray: (name) => name === "entry" || name === "item" || name === "link",
});

/** A feed document as a plain object; not XML at all is a malformed document. */
export function readFeedXml(source: NewsFeed, document: string | Buffer): Record<string, unknown> {
  const text = documentText(source, document);
  try {
    return parser.parse(text, true) as Record<string, unknown>;
  } catch {
    throw new UpstreamDocumentError(source, "malformed", DOCUMENT_FAILURES.notXml);
  }
}

/**
 * Element text whether the parser gave a string or an object with attributes. The parser has decoded entities once;
 * an Atom `type="html"` text is escaped HTML, so its markup is read as HTML once more. Plain text is not decoded
 * again: a title's literal `&amp;` must not become `&`.
 */
export function elementText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const isHtml = typeof value === "object" && (value as Record<string, unknown>)["@type"] === "html";
  const raw = typeof value === "object" ? (value as Record<string, unknown>)["#text"] : value;
  if (raw === undefined || raw === null) return null;
  const text = isHtml ? htmlFragmentText(String(raw)) : String(raw).replace(/\s+/g, " ").trim();
  return text === "" ? null : text;
}
