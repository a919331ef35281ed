import { parse as parseLossless } from "lossless-json";
import { DateTime } from "luxon";
import { SDMX_PERIOD_FORMATS } from "../../../schemas/reference-periods.ts";
import type { ValueTransformation } from "../../../schemas/vocabularies.ts";
import type { SourceObservation } from "../records.ts";
import { readPeriodText } from "./period-text.ts";
import { publishedValue } from "./published-value.ts";
import { jsonDocument } from "./text.ts";
import { UpstreamDocumentError } from "./upstream-document-error.ts";

const API = "eurostat-sdmx";
/** Provenance `adapter`. */
const EUROSTAT_JSON_STAT_ADAPTER = "eurostat-json-stat";

const TIME_DIMENSION = "time";

type Json = Record<string, unknown>;

/**
 * Eurostat's Statistics API answer (JSON-stat 2.0 dataset): `id` and `size` give the dimensions in order, the flat index
 * of a cell is row-major over them, `value` and `status` are sparse objects (or arrays) keyed by that index.
 *
 * Values are JSON numbers, so the document is read with a lossless parser and each value kept as the digits written
 * (`6.5`, `-1.0`, `0.0`: never through a float). seriesId is `<dataset>.<key>` as for SDMX-CSV: the dataset code
 * (`extension.id`, lower-cased) and the codes of every dimension but time in `id` order (`une_rt_m.M.SA.TOTAL.PC_ACT.T.EA21`).
 * publicationStatus is the cell's status as written (`i`, `p`, `|C`), and `note` its label from `extension.status.label`.
 * Every cell of the grid is an observation: one without a value (a confidential cell, a position the publisher lists in
 * `positions-with-no-data`, or simply absent) is null, never dropped. `updated` is the dataset's last update.
 */
export function parseEurostatJsonStat(document: string | Buffer): SourceObservation[] {
  const dataset = objectOf(
    jsonDocument(API, document, (text) => parseLossless(text, null, (number: string) => number)),
  );
  if (dataset.class !== "dataset") throw new UpstreamDocumentError(API, "malformed", "not a JSON-stat dataset");
  const ids = dataset.id;
  const sizes = Array.isArray(dataset.size) ? dataset.size.map(Number) : [];
  if (
    !Array.isArray(ids) ||
    !ids.every((id) => typeof id === "string") ||
    ids.length !== sizes.length ||
    !ids.includes(TIME_DIMENSION)
  ) {
    throw new UpstreamDocumentError(
      API,
      "malformed",
      "id and size do not describe the dimensions with a time dimension",
    );
  }
  const extension = objectOf(dataset.extension);
  const datasetCode = typeof extension.id === "string" ? extension.id.toLowerCase() : null;
  if (!datasetCode) throw new UpstreamDocumentError(API, "malformed", "no dataset code (extension.id)");
  const codes = (ids as string[]).map((id, position) =>
    categoryCodes(objectOf(dataset.dimension), id, sizes[position]!),
  );
  const values = cellsOf(dataset.value);
  const statuses = cellsOf(dataset.status);
  const labels = objectOf(objectOf(extension.status).label);
  const sourceUpdatedAt = updatedInstant(dataset.updated);
  const timeAxis = ids.indexOf(TIME_DIMENSION);
  const periods = codes[timeAxis]!.map((code) => {
    const period = readPeriodText(code, SDMX_PERIOD_FORMATS);
    if (!period)
      throw new UpstreamDocumentError(
        API,
        "malformed",
        `time ${JSON.stringify(code)} has no reference-period code of ours`,
      );
    return period.code;
  });

  const observations: SourceObservation[] = [];
  const total = sizes.reduce((product, size) => product * size, 1);
  for (let flat = 0; flat < total; flat++) {
    const position = positionOf(flat, sizes);
    const key = String(flat);
    const status = typeof statuses[key] === "string" ? (statuses[key] as string) : null;
    const value =
      values[key] === undefined || values[key] === null
        ? null
        : publishedValue(API, String(values[key]), [], `cell ${flat}`);
    const transformation: ValueTransformation[] = [value === null ? "MISSING_MARKER_AS_NULL" : "JSON_NUMBER_TEXT_KEPT"];
    if (sourceUpdatedAt !== null) transformation.push("UPDATE_TIME_TO_UTC");
    observations.push({
      api: API,
      seriesId: [
        datasetCode,
        ...codes.flatMap((axis, dimension) => (dimension === timeAxis ? [] : [axis[position[dimension]!]!])),
      ].join("."),
      referencePeriod: periods[position[timeAxis]!]!,
      value,
      publicationStatus: status,
      sourceUpdatedAt,
      note: status !== null && typeof labels[status] === "string" ? (labels[status] as string) : null,
      adapter: EUROSTAT_JSON_STAT_ADAPTER,
      transformation,
    });
  }
  return observations;
}

/** The category codes of one dimension in index order (`category.index` is an object of positions or an array). */
function categoryCodes(dimensions: Json, id: string, size: number): string[] {
  const index = objectOf(objectOf(dimensions[id]).category).index;
  const codes: string[] = [];
  if (Array.isArray(index)) {
    for (const [position, code] of index.entries()) codes[position] = String(code);
  } else for (const [code, position] of Object.entries(objectOf(index))) codes[Number(position)] = code;
  if (codes.length !== size || codes.some((code) => code === undefined)) {
    throw new UpstreamDocumentError(API, "malformed", `dimension ${id} does not list ${size} categories`);
  }
  return codes;
}

/** `value` and `status` by flat index: JSON-stat writes them as a sparse object or as a dense array. */
function cellsOf(cells: unknown): Json {
  return Array.isArray(cells) ? Object.fromEntries(cells.map((cell, flat) => [String(flat), cell])) : objectOf(cells);
}

/** Row-major: the last dimension varies fastest. */
function positionOf(flat: number, sizes: number[]): number[] {
  const position = new Array<number>(sizes.length);
  let rest = flat;
  for (let dimension = sizes.length - 1; dimension >= 0; dimension--) {
    position[dimension] = rest % sizes[dimension]!;
    rest = Math.floor(rest / sizes[dimension]!);
  }
  return position;
}

/** `2026-09-04T23:00:00+0200` → UTC instant; null when the document states none. */
function updatedInstant(updated: unknown): string | null {
  if (typeof updated !== "string" || updated === "") return null;
  const instant = DateTime.fromISO(updated);
  if (!instant.isValid)
    throw new UpstreamDocumentError(API, "malformed", `updated ${JSON.stringify(updated)} is not an ISO 8601 instant`);
  return instant.toUTC().toISO()!;
}

function objectOf(value: unknown): Json {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : {};
}
