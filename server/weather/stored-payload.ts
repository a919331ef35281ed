import { deflateRawSync, inflateRawSync } from "node:zlib";
import { ownedBytes } from "../memory/owned-bytes.ts";
import type { WeatherPayload } from "./model.ts";
import { MET_ATTRIBUTION, MET_SOURCE, STANDIN_ATTRIBUTION, STANDIN_SOURCE } from "./provenance.ts";

/**
 * A normalised payload as the cache keeps it: its JSON deflated in two parts in one allocation. The head (point, model
 * run, current record) comes first, so the current routes inflate about a kilobyte rather than the whole forecast; the
 * series follow as columns (docs/performance.md, weather documents). Its bytes are known exactly.
 */
export interface StoredPayload {
  packed: Buffer;
  /** How many of `packed`'s bytes are the head; the series take the rest. */
  headBytes: number;
  /** The records' source id (MET's or the demo stand-in's), so an answer can name it without inflating. */
  sourceId: string;
}

/**
 * A payload packed where MET's document was read (the document worker), before the cache numbers it; its bytes in an
 * allocation of their own, so that passing it between threads copies exactly these bytes.
 */
export type PackedPayload = Omit<StoredPayload, "packed"> & { packed: Uint8Array };

/** What the current routes read of a payload: everything but its series. */
export type PayloadHead = Pick<WeatherPayload, "location" | "providerModelUpdatedAt" | "current">;

/** Deflate's preset dictionary: the provenances every payload repeats. About 200-300 bytes less a point. */
const PROVENANCE_DICTIONARY = Buffer.from(
  JSON.stringify([
    { source: STANDIN_SOURCE, attribution: STANDIN_ATTRIBUTION },
    { source: MET_SOURCE, attribution: MET_ATTRIBUTION },
  ]),
);

export function packPayload(payload: WeatherPayload): PackedPayload {
  const { location, providerModelUpdatedAt, current, hours, windows, instantTemperatures } = payload;
  const head: PayloadHead = { location, providerModelUpdatedAt, current };
  const series: PackedSeries = {
    hours: toColumns(hours),
    windows: toColumns(windows),
    instantTemperatures: toColumns(instantTemperatures),
  };
  const headText = Buffer.from(JSON.stringify(head));
  const packedHead = deflateRawSync(headText, { dictionary: PROVENANCE_DICTIONARY });
  // The head's text is the series' dictionary: they refer back to its field names and times as one stream would.
  const packedSeries = deflateRawSync(JSON.stringify(series), { dictionary: headText });
  return {
    packed: ownedBytes(Buffer.concat([packedHead, packedSeries])),
    headBytes: packedHead.length,
    sourceId: current.source.id,
  };
}

/** The source ids, so that stored payloads share one string rather than each its own copy from the worker. */
const SOURCE_IDS = new Map([MET_SOURCE.id, STANDIN_SOURCE.id].map((id) => [id, id]));

export function storePayload({ packed, headBytes, sourceId }: PackedPayload): StoredPayload {
  return {
    packed: Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength),
    headBytes,
    sourceId: SOURCE_IDS.get(sourceId) ?? sourceId,
  };
}

export function readPayloadHead(stored: StoredPayload): PayloadHead {
  return JSON.parse(inflateHead(stored).toString()) as PayloadHead;
}

export function readPayload(stored: StoredPayload): WeatherPayload {
  const headText = inflateHead(stored);
  const series = JSON.parse(
    inflateRawSync(stored.packed.subarray(stored.headBytes), { dictionary: headText }).toString(),
  ) as PackedSeries;
  return {
    ...(JSON.parse(headText.toString()) as PayloadHead),
    hours: fromColumns(series.hours),
    windows: fromColumns(series.windows),
    instantTemperatures: fromColumns(series.instantTemperatures),
  };
}

function inflateHead(stored: StoredPayload): Buffer {
  return inflateRawSync(stored.packed.subarray(0, stored.headBytes), { dictionary: PROVENANCE_DICTIONARY });
}

/**
 * A series as columns: deflate finds far more in a run of like values than in interleaved rows (docs/performance.md).
 * Every row is built by one literal (normalise.ts), so the first row's fields are every row's, in the same order.
 */
type Columns<Row> = { [Field in keyof Row]: Row[Field][] };

interface PackedSeries {
  hours: Columns<WeatherPayload["hours"][number]>;
  windows: Columns<WeatherPayload["windows"][number]>;
  instantTemperatures: Columns<WeatherPayload["instantTemperatures"][number]>;
}

function toColumns<Row extends object>(rows: Row[]): Columns<Row> {
  const fields = Object.keys(rows[0] ?? {}) as (keyof Row)[];
  return Object.fromEntries(fields.map((field) => [field, rows.map((row) => row[field])])) as Columns<Row>;
}

/** A plain loop: faster than `Object.fromEntries` (docs/performance.md). */
function fromColumns<Row extends object>(columns: Columns<Row>): Row[] {
  const fields = Object.keys(columns) as (keyof Row)[];
  const count = fields.length === 0 ? 0 : columns[fields[0]].length;
  const rows: Row[] = [];
  for (let index = 0; index < count; index++) {
    const row = {} as Row;
    for (const field of fields) row[field] = columns[field][index]!;
    rows.push(row);
  }
  return rows;
}

/** Bytes the stored payload holds, with the object around it. */
export function storedPayloadBytes(stored: StoredPayload): number {
  return stored.packed.length + STORED_OVERHEAD_BYTES;
}

const STORED_OVERHEAD_BYTES = 200;
