import { SDMX_PERIOD_FORMATS } from "../../../schemas/reference-periods.ts";
import type { SourceObservation } from "../records.ts";
import { readCsvTable } from "./csv.ts";
import { readPeriodText } from "./period-text.ts";
import { publishedValue } from "./published-value.ts";
import { documentText } from "./text.ts";
import { UpstreamDocumentError } from "./upstream-document-error.ts";

const API = "ecb-data";
/** Provenance `adapter`. */
const ECB_CSVDATA_ADAPTER = "ecb-csvdata";

/** An empty cell, or SDMX's "NaN" for an observation reported as missing. */
const MISSING_VALUES = ["", "NaN"];

/**
 * ECB Data Portal `format=csvdata`: one observation per row, columns read by name (`KEY`, `TIME_PERIOD`,
 * `OBS_VALUE`, `OBS_STATUS`; the dimension and attribute columns vary per dataflow). seriesId is KEY as the ECB
 * writes it (`FM.B.U2.EUR.4F.KR.DFR.LEV`, flow then key). OBS_VALUE is the ECB's shortest form ("2", not "2.00"),
 * kept as written. The document states no update time (that is the HTTP Last-Modified header's job).
 */
export function parseEcbCsvdata(document: string | Buffer): SourceObservation[] {
  const table = readCsvTable(API, documentText(API, document), ["KEY", "TIME_PERIOD", "OBS_VALUE"]);
  return table.rows.map((row): SourceObservation => {
    const where = `line ${row.line}`;
    const seriesId = row.cell("KEY");
    if (!seriesId) throw new UpstreamDocumentError(API, "malformed", `${where}: empty KEY`);
    const timePeriod = row.cell("TIME_PERIOD");
    const referencePeriod = readPeriodText(timePeriod, SDMX_PERIOD_FORMATS);
    if (!referencePeriod)
      throw new UpstreamDocumentError(
        API,
        "malformed",
        `${where}: TIME_PERIOD ${JSON.stringify(timePeriod)} has no reference-period code of ours`,
      );
    const value = publishedValue(API, row.cell("OBS_VALUE"), MISSING_VALUES, where);
    return {
      api: API,
      seriesId,
      referencePeriod: referencePeriod.code,
      value,
      publicationStatus: row.cell("OBS_STATUS") || null,
      sourceUpdatedAt: null,
      note: null,
      adapter: ECB_CSVDATA_ADAPTER,
      transformation: value === null ? ["MISSING_MARKER_AS_NULL"] : [],
    };
  });
}
