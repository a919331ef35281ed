import type { SourceObservation } from "../records.ts";
import { publishedValue } from "./published-value.ts";
import { readPeriodText } from "./period-text.ts";
import { documentText } from "./text.ts";
import { UpstreamDocumentError } from "./upstream-document-error.ts";

const API = "bls-api";

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

/**
 * A BLS Public Data API v2 response. BLS answers failures inside HTTP 200 (`status: "REQUEST_NOT_PROCESSED"`,
 * e.g. the daily quota), so anything but REQUEST_SUCCEEDED is refused; "No Data Available" messages on success
 * are not failures. `publicationStatus` is the footnote codes ("P" preliminary, "R" revised), comma-joined.
 * The API states no update time. The `latest` flag, catalog and calculations are not observations.
 */
export function parseBlsObservations(document: string | Buffer): SourceObservation[] {
  let response: unknown;
  try {
    response = JSON.parse(documentText(document));
  } catch {
    throw new UpstreamDocumentError(API, "malformed", "the document is not JSON");
  }
  return seriesOf(response).flatMap(({ seriesID, data }) =>
    data.flatMap((row): SourceObservation[] => {
      const where = `${seriesID} ${row.year} ${row.period}`;
      if (ANNUAL_AVERAGES.includes(row.period)) return [];
      const referencePeriod = periodCode(row, where);
      const codes = (row.footnotes ?? []).flatMap((footnote) => {
        const code = objectOrEmpty(footnote).code;
        return typeof code === "string" && code.trim() !== "" ? [code.trim()] : [];
      });
      return [{
        api: API,
        seriesId: seriesID,
        referencePeriod,
        value: publishedValue(API, row.value, MISSING_VALUES, where),
        publicationStatus: codes.length > 0 ? codes.join(",") : null,
        sourceUpdatedAt: null,
      }];
    }),
  );
}

function seriesOf(response: unknown): { seriesID: string; data: BlsRow[] }[] {
  const envelope = objectOrEmpty(response);
  let results: unknown;
  if ("status" in envelope) {
    if (envelope.status !== "REQUEST_SUCCEEDED") {
      const messages = Array.isArray(envelope.message) ? envelope.message.join(" ") : "";
      throw new UpstreamDocumentError(API, "rejected-by-publisher", `status ${JSON.stringify(envelope.status)}${messages ? `: ${messages}` : ""}`);
    }
    results = envelope.Results;
  } else if ("series" in envelope) {
    // Some recordings keep only the `Results` member; with no status to check, its series are taken as they stand.
    results = envelope;
  }
  const series = objectOrEmpty(results).series;
  if (!Array.isArray(series)) throw new UpstreamDocumentError(API, "malformed", "no Results.series array");
  return series.map((entry: unknown, index) => {
    const { seriesID, data } = objectOrEmpty(entry);
    if (typeof seriesID !== "string" || !Array.isArray(data) || !data.every(isRow)) {
      throw new UpstreamDocumentError(API, "malformed", `series ${index + 1} lacks a seriesID or year/period/value rows`);
    }
    return { seriesID, data };
  });
}

function objectOrEmpty(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

function isRow(row: unknown): row is BlsRow {
  const candidate = row as Partial<Record<keyof BlsRow, unknown>> | null;
  return typeof candidate?.year === "string" && typeof candidate.period === "string" && typeof candidate.value === "string"
    && (candidate.footnotes === undefined || Array.isArray(candidate.footnotes));
}

function periodCode(row: BlsRow, where: string): string {
  const period = readPeriodText(`${row.year} ${row.period}`, PERIOD_FORMATS);
  if (period) return period.code;
  throw new UpstreamDocumentError(API, "malformed", `${where}: period code ${row.period} has no reference-period code of ours`);
}
