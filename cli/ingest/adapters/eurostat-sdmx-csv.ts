import { DateTime } from "luxon";
import { SDMX_PERIOD_FORMATS } from "../../../schemas/reference-periods.ts";
import type { ValueTransformation } from "../../../schemas/vocabularies.ts";
import type { SourceObservation } from "../records.ts";
import { readCsvTable } from "./csv.ts";
import { readPeriodText } from "./period-text.ts";
import { publishedValue } from "./published-value.ts";
import { documentText } from "./text.ts";
import { UpstreamDocumentError } from "./upstream-document-error.ts";

const API = "eurostat-sdmx";
/** Provenance `adapter`. */
const EUROSTAT_SDMX_CSV_ADAPTER = "eurostat-sdmx-csv";

/** Columns of SDMX-CSV 1.0 (plus Eurostat's LAST UPDATE) that are not series dimensions. */
const NOT_DIMENSIONS = new Set(["DATAFLOW", "LAST UPDATE"]);

/**
 * LAST UPDATE is written `dd/MM/yy HH:mm:ss` in Eurostat's local time; its database updates run at 11:00 and
 * 23:00 Brussels/Luxembourg time (the two zones share their rules).
 */
const LAST_UPDATE_FORMAT = "dd/MM/yy HH:mm:ss";
const LAST_UPDATE_ZONE = "Europe/Brussels";

/**
 * Eurostat SDMX-CSV 1.0 (SDMX 2.1 API, `format=SDMX-CSV`), one observation per row, columns read by name:
 * `DATAFLOW, LAST UPDATE, <dimensions…>, TIME_PERIOD, OBS_VALUE, OBS_FLAG, CONF_STATUS`.
 *
 * seriesId is `<dataset>.<key>`, the form of `upstreamSeriesKey`: the dataset is the DATAFLOW id without agency
 * and version, lower-cased as Eurostat's dataset codes are written (`ESTAT:UNE_RT_M(1.0)` → `une_rt_m`), and the
 * key is the values of the dimension columns (every column before TIME_PERIOD except DATAFLOW and LAST UPDATE)
 * joined with "." in column order: `une_rt_m.M.SA.TOTAL.PC_ACT.T.DE`.
 *
 * publicationStatus is OBS_FLAG as written (`p`, `b`, `bp`, …); when CONF_STATUS is set it follows a "|", as in
 * Eurostat's own JSON-stat status (`|C` is a confidential cell with no value). An empty OBS_VALUE is null.
 */
export function parseEurostatSdmxCsv(document: string | Buffer): SourceObservation[] {
  const table = readCsvTable(API, documentText(API, document), ["DATAFLOW", "TIME_PERIOD", "OBS_VALUE"]);
  const dimensions = table.header
    .slice(0, table.header.indexOf("TIME_PERIOD"))
    .filter((column) => !NOT_DIMENSIONS.has(column));
  const updatedAt = new Map<string, string | null>();
  return table.rows.map((row): SourceObservation => {
    const where = `line ${row.line}`;
    const timePeriod = row.cell("TIME_PERIOD");
    const referencePeriod = readPeriodText(timePeriod, SDMX_PERIOD_FORMATS);
    if (!referencePeriod)
      throw new UpstreamDocumentError(
        API,
        "malformed",
        `${where}: TIME_PERIOD ${JSON.stringify(timePeriod)} has no reference-period code of ours`,
      );
    const lastUpdate = row.cell("LAST UPDATE");
    if (!updatedAt.has(lastUpdate)) updatedAt.set(lastUpdate, lastUpdateInstant(lastUpdate, where));
    const flag = row.cell("OBS_FLAG");
    const confidentiality = row.cell("CONF_STATUS");
    const value = publishedValue(API, row.cell("OBS_VALUE"), [""], where);
    const sourceUpdatedAt = updatedAt.get(lastUpdate)!;
    const transformation: ValueTransformation[] = [];
    if (value === null) transformation.push("MISSING_MARKER_AS_NULL");
    if (sourceUpdatedAt !== null) transformation.push("UPDATE_TIME_TO_UTC");
    return {
      api: API,
      seriesId: [datasetCode(row.cell("DATAFLOW"), where), ...dimensions.map((column) => row.cell(column))].join("."),
      referencePeriod: referencePeriod.code,
      value,
      publicationStatus: confidentiality ? `${flag}|${confidentiality}` : flag || null,
      sourceUpdatedAt,
      note: null,
      adapter: EUROSTAT_SDMX_CSV_ADAPTER,
      transformation,
    };
  });
}

/** `AGENCY:ID(VERSION)` → the dataset code. */
function datasetCode(dataflow: string, where: string): string {
  const id = /^(?:[A-Za-z0-9_.]+:)?([A-Za-z0-9_]+)(?:\([^)]*\))?$/.exec(dataflow)?.[1];
  if (!id)
    throw new UpstreamDocumentError(
      API,
      "malformed",
      `${where}: DATAFLOW ${JSON.stringify(dataflow)} is not AGENCY:ID(VERSION)`,
    );
  return id.toLowerCase();
}

function lastUpdateInstant(text: string, where: string): string | null {
  if (text === "") return null;
  const instant = DateTime.fromFormat(text, LAST_UPDATE_FORMAT, { zone: LAST_UPDATE_ZONE });
  if (!instant.isValid)
    throw new UpstreamDocumentError(
      API,
      "malformed",
      `${where}: LAST UPDATE ${JSON.stringify(text)} is not ${LAST_UPDATE_FORMAT}`,
    );
  return instant.toUTC().toISO()!;
}
