import { stringify } from "csv-stringify/sync";
import { CSV_MEDIA_TYPE, type CsvForm, cellText, valueAt } from "../../schemas/responses/csv-tables.ts";
import { bareAnswer, fittedToCeiling, type PreparedAnswer } from "./prepared-answer.ts";
import type { FirstItems, RouteMeta, RouteResult } from "./route-handler.ts";
import { SerialisedSection } from "./serialised-section.ts";

/**
 * The CSV form of a list answer (RFC 4180, one header row). What JSON says in `meta` travels in `Link` headers: the
 * next page (rel="next") and each publisher's terms (rel="license"). Cut to the response ceiling as the JSON is.
 */
export function prepareCsvAnswer(
  result: RouteResult,
  form: CsvForm,
  request: { pathname: string; search: string },
): PreparedAnswer {
  const prepare = ({ data, meta }: FirstItems): PreparedAnswer => {
    const link = linkHeader(meta, request);
    const body = new SerialisedSection(csvText(form, data as Record<string, unknown>));
    return bareAnswer(body, 200, { mediaType: CSV_MEDIA_TYPE, headers: link === "" ? {} : { link } });
  };
  return fittedToCeiling(prepare(result), result.cut, prepare);
}

function csvText(form: CsvForm, data: Record<string, unknown>): string {
  const table = form.tableFor(data);
  const header = table.columns.map((column) => column.name);
  const rows = table.rows(data).map((row) => table.columns.map((column) => cellText(valueAt(row, column.path))));
  // csv-stringify quotes a lone CR or LF only when asked: RFC 4180 readers take either for a line end.
  return stringify([header, ...rows], { record_delimiter: "windows", quoted_match: /[\r\n]/ });
}

/** The next page (with format=csv, so that following it needs no Accept header) and the publishers' terms. */
function linkHeader(meta: RouteMeta | undefined, request: { pathname: string; search: string }): string {
  const links: string[] = [];
  const next = meta?.nextCursor;
  if (typeof next === "string") {
    const query = new URLSearchParams(request.search);
    query.set("cursor", next);
    query.set("format", "csv");
    links.push(`<${request.pathname}?${query}>; rel="next"`);
  }
  for (const record of meta?.attributionRecords ?? []) {
    links.push(
      `<${record.termsUrl}>; rel="license"; ${quotedTitle(record.licenseName)}; source="${record.sourceId}"; required="${record.required}"; modified="${record.modifiedByService}"`,
    );
  }
  return links.join(", ");
}

/** RFC 8288 `title`, or `title*` (RFC 8187) when the text is not plain ASCII. */
function quotedTitle(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return `title="${text.replace(/["\\]/g, "\\$&")}"`;
  return `title*=UTF-8''${encodeURIComponent(text).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
