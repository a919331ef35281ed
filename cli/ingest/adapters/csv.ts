import type { ObservationApi } from "../../../schemas/vocabularies.ts";
import { DOCUMENT_FAILURES } from "./document-failures.ts";
import { UpstreamDocumentError } from "./upstream-document-error.ts";

/** One data row of a CSV table, read by header name so that publishers may add or reorder columns. */
interface CsvRow {
  /** 1-based line of the row in the document, for error messages. */
  line: number;
  /** The field under that header; a column the document does not have reads as empty. */
  cell(column: string): string;
}

export interface CsvTable {
  header: string[];
  rows: CsvRow[];
}

/**
 * RFC 4180 CSV with a header row: quoted fields may hold commas, doubled quotes and line breaks; CRLF or LF.
 * Refuses the document when a required column is missing or a row has a different number of fields.
 */
export function readCsvTable(api: ObservationApi, text: string, requiredColumns: readonly string[]): CsvTable {
  const records = splitRecords(api, text);
  const headerRecord = records.shift();
  if (!headerRecord) throw new UpstreamDocumentError(api, "malformed", DOCUMENT_FAILURES.empty);
  const header = headerRecord.fields;
  const missing = requiredColumns.filter((column) => !header.includes(column));
  if (missing.length > 0) throw new UpstreamDocumentError(api, "malformed", `missing column(s) ${missing.join(", ")}`);
  const index = new Map(header.map((name, position) => [name, position]));
  const rows = records.map(({ line, fields }): CsvRow => {
    if (fields.length !== header.length) {
      throw new UpstreamDocumentError(
        api,
        "malformed",
        `line ${line}: ${fields.length} fields where the header has ${header.length}`,
      );
    }
    return { line, cell: (column) => fields[index.get(column) ?? -1] ?? "" };
  });
  return { header, rows };
}

function splitRecords(api: ObservationApi, text: string): { line: number; fields: string[] }[] {
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  const endRecord = () => {
    fields.push(field);
    // A blank line (or the final line break) is not a record.
    if (fields.length > 1 || fields[0] !== "") records.push({ line: recordLine, fields });
    fields = [];
    field = "";
  };
  for (let position = 0; position < text.length; position++) {
    const char = text[position]!;
    if (char === "\n" || (char === "\r" && text[position + 1] !== "\n")) line++;
    if (quoted) {
      if (char !== '"') field += char;
      else if (text[position + 1] === '"') field += text[++position];
      else quoted = false;
    } else if (char === '"' && field === "") {
      quoted = true;
    } else if (char === ",") {
      fields.push(field);
      field = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[position + 1] === "\n") continue;
      endRecord();
      recordLine = line;
    } else {
      field += char;
    }
  }
  if (quoted) throw new UpstreamDocumentError(api, "malformed", `line ${recordLine}: a quoted field is never closed`);
  endRecord();
  return records;
}
