import { parse as parseLossless } from "lossless-json";
import { SDMX_PERIOD_FORMATS } from "../../../schemas/reference-periods.ts";
import type { SourceObservation } from "../records.ts";
import { readPeriodText } from "./period-text.ts";
import { publishedValue } from "./published-value.ts";
import { jsonDocument } from "./text.ts";
import { UpstreamDocumentError } from "./upstream-document-error.ts";

const API = "ecb-data";
/** Provenance `adapter`. */
const ECB_SDMX_JSON_ADAPTER = "ecb-sdmx-json";

type Json = Record<string, unknown>;

/**
 * ECB Data Portal `format=jsondata` (SDMX-JSON 1.0 data message), as archived answers of the portal replay. A series is
 * keyed `"0:0:6"`: positions into `structure.dimensions.series`; an observation is keyed by its position in the
 * time dimension (`structure.dimensions.observation`) and holds `[value, attribute positions…]` in the order of
 * `structure.attributes.observation`. seriesId is `<flow>.<key>` as csvdata writes KEY (`EST.B.EU000A2X2A25.WT`), the
 * flow read from the message's dataflow link. Values are JSON numbers, read losslessly and kept as the digits written
 * (`2.92`, never through a float); a null value is the publisher's missing value. publicationStatus is OBS_STATUS's
 * code. The message's `prepared` time is when the answer was made, not when the data changed: no update time is stated.
 */
export function parseEcbSdmxJson(document: string | Buffer): SourceObservation[] {
  const message = objectOf(
    jsonDocument(API, document, (text) => parseLossless(text, null, (number: string) => number)),
  );
  const structure = objectOf(message.structure);
  const dataSets = message.dataSets;
  if (!Array.isArray(dataSets) || Object.keys(structure).length === 0)
    throw new UpstreamDocumentError(API, "malformed", "not an SDMX-JSON data message (no structure and dataSets)");
  const flow = flowOf(structure);
  const dimensions = objectOf(structure.dimensions);
  const seriesDimensions = listOf(dimensions.series).map((dimension) => codesOf(dimension, "series dimension"));
  const timeDimension = listOf(dimensions.observation);
  if (timeDimension.length !== 1)
    throw new UpstreamDocumentError(API, "malformed", "expected exactly one observation (time) dimension");
  const periods = codesOf(timeDimension[0], "time dimension").map((code) => {
    const period = readPeriodText(code, SDMX_PERIOD_FORMATS);
    if (!period)
      throw new UpstreamDocumentError(
        API,
        "malformed",
        `time ${JSON.stringify(code)} has no reference-period code of ours`,
      );
    return period.code;
  });
  const observationAttributes = listOf(objectOf(structure.attributes).observation);
  const statusAt = observationAttributes.findIndex((attribute) => objectOf(attribute).id === "OBS_STATUS");
  const statusCodes = statusAt < 0 ? [] : codesOf(observationAttributes[statusAt], "OBS_STATUS");

  const observations: SourceObservation[] = [];
  for (const dataSet of dataSets) {
    for (const [seriesKey, series] of Object.entries(objectOf(objectOf(dataSet).series))) {
      const seriesId = [
        flow,
        ...positionsOf(seriesKey, seriesDimensions.length).map((position, dimension) =>
          at(seriesDimensions[dimension]!, position, `series ${seriesKey}`),
        ),
      ].join(".");
      for (const [timeKey, cell] of Object.entries(objectOf(objectOf(series).observations))) {
        const where = `series ${seriesKey} observation ${timeKey}`;
        if (!Array.isArray(cell)) throw new UpstreamDocumentError(API, "malformed", `${where}: not an array`);
        const [rawValue] = cell;
        const value =
          rawValue === null || rawValue === undefined ? null : publishedValue(API, String(rawValue), ["NaN"], where);
        const statusPosition = statusAt < 0 ? null : cell[statusAt + 1];
        observations.push({
          api: API,
          seriesId,
          referencePeriod: at(periods, Number(timeKey), where),
          value,
          publicationStatus:
            statusPosition === null || statusPosition === undefined
              ? null
              : at(statusCodes, Number(statusPosition), `${where} OBS_STATUS`),
          sourceUpdatedAt: null,
          note: null,
          adapter: ECB_SDMX_JSON_ADAPTER,
          transformation: [value === null ? "MISSING_MARKER_AS_NULL" : "JSON_NUMBER_TEXT_KEPT"],
        });
      }
    }
  }
  return observations;
}

/** The dataflow id from the message's dataflow link (`…/service/dataflow/ECB/EST/1.0`). */
function flowOf(structure: Json): string {
  const link = listOf(structure.links)
    .map(objectOf)
    .find((candidate) => candidate.rel === "dataflow");
  const flow = typeof link?.href === "string" ? /\/dataflow\/[^/]+\/([^/]+)\//.exec(link.href)?.[1] : undefined;
  if (!flow) throw new UpstreamDocumentError(API, "malformed", "no dataflow link names the flow");
  return flow;
}

/** The codes (`values[].id`) of one dimension or coded attribute, in position order. */
function codesOf(component: unknown, what: string): string[] {
  const values = objectOf(component).values;
  if (!Array.isArray(values) || !values.every((value) => typeof objectOf(value).id === "string")) {
    throw new UpstreamDocumentError(API, "malformed", `${what} lists no coded values`);
  }
  return values.map((value) => objectOf(value).id as string);
}

/** `"0:0:6"` → [0, 0, 6], one position per series dimension. */
function positionsOf(key: string, count: number): number[] {
  const positions = key.split(":").map(Number);
  if (positions.length !== count || positions.some((position) => !Number.isInteger(position))) {
    throw new UpstreamDocumentError(
      API,
      "malformed",
      `series key ${JSON.stringify(key)} does not give one position per dimension`,
    );
  }
  return positions;
}

function at<T>(list: T[], position: number, where: string): T {
  const found = Number.isInteger(position) ? list[position] : undefined;
  if (found === undefined)
    throw new UpstreamDocumentError(API, "malformed", `${where}: position ${position} is not in the structure`);
  return found;
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function objectOf(value: unknown): Json {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : {};
}
