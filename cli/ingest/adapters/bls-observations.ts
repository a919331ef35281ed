import type { SourceObservation } from "../records.ts";
import { readPeriodText } from "./period-text.ts";
import { publishedValue } from "./published-value.ts";
import { jsonDocument } from "./text.ts";
import { UpstreamDocumentError } from "./upstream-document-error.ts";

const API = "bls-api";
/** Provenance `adapter`: the JSON answer of the BLS Public Data API (v1 and v2 answer in the same shape). */
const BLS_ADAPTER = "bls-timeseries-json";

/** BLS writes a value it does not have as "-" (some surveys) or leaves it empty. */
const MISSING_VALUES = ["-", ""];

/**
 * BLS period codes that are a period of the series' own frequency. M13 (annual average of a monthly series)
 * and Q05 (of a quarterly one) are BLS's own averages, not observations of the series, and are left out.
 * Half-years (S01..S03) have no code in our vocabulary, so a document holding them is refused.
 */
const PERIOD_FORMATS = [
  { format: "yyyy 'M'MM", kind: "MONTH" },
  { format: "yyyy 'Q0'q", kind: "QUARTER" },
  { format: "yyyy 'A01'", kind: "YEAR" },
] as const;
const ANNUAL_AVERAGES = ["M13", "Q05"];

interface BlsRow {
  year: string;
  period: string;
  value: string;
  footnotes?: unknown[];
}

/** BLS's answer to a series id it does not know: `REQUEST_SUCCEEDED` with "Invalid Series for Series X" and no data. */
const INVALID_SERIES_MESSAGE = /^Invalid Series\b/i;

/**
 * A BLS Public Data API response (v2, or v1 in the same shape). BLS answers failures inside HTTP 200
 * (`status: "REQUEST_NOT_PROCESSED"`: the daily quota, an invalid key), so anything but REQUEST_SUCCEEDED is refused,
 * and so is a "successful" answer that names an invalid series or holds no series at all: each is the publisher
 * saying no, never an empty success. "No Data Available" messages on success are not failures.
 * `publicationStatus` is the footnote codes ("P" preliminary, "R" revised, "X" unavailable), comma-joined, and `note`
 * their texts ("Data unavailable due to the 2025 lapse in appropriations"). BLS writes a value it does not have as
 * "-" (the October 2025 gap): that is null, with its footnote. The API states no update time. The `latest` flag,
 * catalog and calculations are not observations.
 */
export function parseBlsObservations(document: string | Buffer): SourceObservation[] {
  const response: unknown = jsonDocument(API, document, JSON.parse);
  return seriesOf(response).flatMap(({ seriesID, data }) =>
    data.flatMap((row): SourceObservation[] => {
      const where = `${seriesID} ${row.year} ${row.period}`;
      if (ANNUAL_AVERAGES.includes(row.period)) return [];
      const referencePeriod = periodCode(row, where);
      const footnotes = (row.footnotes ?? []).map(objectOrEmpty);
      const codes = footnotes.flatMap(({ code }) =>
        typeof code === "string" && code.trim() !== "" ? [code.trim()] : [],
      );
      const texts = footnotes.flatMap(({ text }) =>
        typeof text === "string" && text.trim() !== "" ? [text.trim()] : [],
      );
      const value = publishedValue(API, row.value, MISSING_VALUES, where);
      return [
        {
          api: API,
          seriesId: seriesID,
          referencePeriod,
          value,
          publicationStatus: codes.length > 0 ? codes.join(",") : null,
          sourceUpdatedAt: null,
          note: texts.length > 0 ? texts.join(" ") : null,
          adapter: BLS_ADAPTER,
          transformation:
            value === null ? ["PERIOD_CODE_REWRITTEN", "MISSING_MARKER_AS_NULL"] : ["PERIOD_CODE_REWRITTEN"],
        },
      ];
    }),
  );
}

function seriesOf(response: unknown): { seriesID: string; data: BlsRow[] }[] {
  const envelope = objectOrEmpty(response);
  let results: unknown;
  if ("status" in envelope) {
    if (envelope.status !== "REQUEST_SUCCEEDED") {
      const messages = Array.isArray(envelope.message) ? envelope.message.join(" ") : "";
      throw new UpstreamDocumentError(
        API,
        "rejected-by-publisher",
        `status ${JSON.stringify(envelope.status)}${messages ? `: ${messages}` : ""}`,
      );
    }
    const invalid = (Array.isArray(envelope.message) ? envelope.message : []).filter(
      (message): message is string => typeof message === "string" && INVALID_SERIES_MESSAGE.test(message),
    );
    if (invalid.length > 0) throw new UpstreamDocumentError(API, "rejected-by-publisher", invalid.join(" "));
    results = envelope.Results;
  } else if ("series" in envelope) {
    // Some recordings keep only the `Results` member; with no status to check, its series are taken as they stand.
    results = envelope;
  }
  const series = objectOrEmpty(results).series;
  if (!Array.isArray(series)) throw new UpstreamDocumentError(API, "malformed", "no Results.series array");
  // Every request names at least one series, so an answer holding none is a failure, not "no values".
  if (series.length === 0) throw new UpstreamDocumentError(API, "rejected-by-publisher", "the answer holds no series");
  return series.map((entry: unknown, index) => {
    const { seriesID, data } = objectOrEmpty(entry);
    if (typeof seriesID !== "string" || !Array.isArray(data) || !data.every(isRow)) {
      throw new UpstreamDocumentError(
        API,
        "malformed",
        `series ${index + 1} lacks a seriesID or year/period/value rows`,
      );
    }
    return { seriesID, data };
  });
}

function objectOrEmpty(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

function isRow(row: unknown): row is BlsRow {
  const candidate = row as Partial<Record<keyof BlsRow, unknown>> | null;
  return (
    typeof candidate?.year === "string" &&
    typeof candidate.period === "string" &&
    typeof candidate.value === "string" &&
    (candidate.footnotes === undefined || Array.isArray(candidate.footnotes))
  );
}

function periodCode(row: BlsRow, where: string): string {
  const period = readPeriodText(`${row.year} ${row.period}`, PERIOD_FORMATS);
  if (period) return period.code;
  throw new UpstreamDocumentError(
    API,
    "malformed",
    `${where}: period code ${row.period} has no reference-period code of ours`,
  );
}
