import { XMLParser } from "fast-xml-parser";
import type { NewsFeed } from "../../../schemas/vocabularies.ts";
import { UpstreamDocumentError } from "./upstream-document-error.ts";
import { decodeHtmlEntities, documentText } from "./text.ts";

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
  try {
    return parser.parse(documentText(document), true) as Record<string, unknown>;
  } catch {
    throw new UpstreamDocumentError(source, "malformed", "the document is not well-formed XML");
  }
}

/** Element text whether the parser gave a string, a number or an object with attributes (`<title type="html">`). */
export function elementText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "object") return elementText((value as Record<string, unknown>)["#text"]);
  const text = decodeHtmlEntities(String(value)).replace(/\s+/g, " ").trim();
  return text === "" ? null : text;
}
