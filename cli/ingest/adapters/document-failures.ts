/**
 * Why a whole publisher document is refused, worded once for every source: an operator reading a run's summary finds
 * the same words for the same fault whichever publisher sent it. Adapters add only what is their format's own
 * ("no dl.ecb-basicList on the page"), never their own wording of these.
 */
export const DOCUMENT_FAILURES = {
  /** Zero bytes, or nothing but white space and a byte-order mark. */
  empty: "the document is empty",
  notJson: "the document is not JSON",
  notXml: "the document is not well-formed XML",
  notICalendar: "the document is not an iCalendar calendar (no BEGIN:VCALENDAR line)",
  truncatedICalendar: "the iCalendar calendar is truncated (no END:VCALENDAR or an unclosed VEVENT)",
  truncatedHtml: "the page is truncated (no closing </html>)",
  /** A source that reads either of two formats (a live page, an archived derivation) and met neither. */
  neitherFormat: (formats: string) => `the document is neither ${formats}`,
  /** Over the ceiling of its format (cli/ingest/document-ceilings.ts), whether fetched or replayed. */
  overCeiling: (bytes: number | null, ceiling: number, format: string) =>
    `the document is ${bytes === null ? "larger than" : `${bytes} bytes, over`} the ${ceiling}-byte ceiling for ${format}`,
} as const;
