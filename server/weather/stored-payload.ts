import { deflateRawSync, inflateRawSync } from "node:zlib";
import { ownedBytes } from "../memory/owned-bytes.ts";
import type { WeatherPayload } from "./model.ts";
import { MET_ATTRIBUTION, MET_SOURCE, STANDIN_ATTRIBUTION, STANDIN_SOURCE } from "./provenance.ts";

/**
 * A normalised payload as the cache keeps it: its JSON text with each series as columns, deflated. A point then weighs
 * about 2.2 KB instead of the 45 KB of its text (or more as objects), its bytes are known exactly, and it is inflated
 * only when a route renders a variant it has not rendered before (renderings.ts keeps what it renders). `serial` names
 * this payload among all the process has stored, so renderings are never confused with those of a newer payload for
 * the point.
 */
export interface StoredPayload {
  serial: number;
  packed: Buffer;
  /** The id of the records' source (MET's, or the demo stand-in's), so an answer can name it without inflating. */
  sourceId: string;
}

/** A payload packed where MET's document was read (the document worker), before the cache numbers it. */
export interface PackedPayload {
  /** In an allocation of its own, so that passing it between threads copies exactly these bytes. */
  packed: Uint8Array;
  sourceId: string;
}

let lastSerial = 0;

/**
 * Deflate's preset dictionary: the provenances a payload can carry (MET's, the demo stand-in's), which every payload
 * repeats and deflate could not otherwise refer back to. About 200-300 bytes less a point.
 */
const PROVENANCE_DICTIONARY = Buffer.from(JSON.stringify([
  { source: STANDIN_SOURCE, attribution: STANDIN_ATTRIBUTION },
  { source: MET_SOURCE, attribution: MET_ATTRIBUTION },
]));

export function packPayload(payload: WeatherPayload): PackedPayload {
  const packedText: PackedText = {
    ...payload,
    hours: toColumns(payload.hours),
    windows: toColumns(payload.windows),
    instantTemperatures: toColumns(payload.instantTemperatures),
  };
  return { packed: ownedBytes(deflateRawSync(JSON.stringify(packedText), { dictionary: PROVENANCE_DICTIONARY })), sourceId: payload.current.source.id };
}

/** The sources a payload names, so that every stored payload shares their text rather than its own copy from the worker. */
const SOURCE_IDS = new Map([MET_SOURCE.id, STANDIN_SOURCE.id].map((id) => [id, id]));

export function storePayload({ packed, sourceId }: PackedPayload): StoredPayload {
  lastSerial += 1;
  return { serial: lastSerial, packed: Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength), sourceId: SOURCE_IDS.get(sourceId) ?? sourceId };
}

export function readPayload(stored: StoredPayload): WeatherPayload {
  const packedText = JSON.parse(inflateRawSync(stored.packed, { dictionary: PROVENANCE_DICTIONARY }).toString()) as PackedText;
  return {
    ...packedText,
    hours: fromColumns(packedText.hours),
    windows: fromColumns(packedText.windows),
    instantTemperatures: fromColumns(packedText.instantTemperatures),
  };
}

/**
 * The payload's series as columns: each field's name once and its values side by side. Deflate finds far more in a
 * run of like values than in rows that interleave every field: a point packs to about 2.4 KB instead of 3.7 (MET's
 * recorded documents and the stand-in's alike), 2.2 KB with the dictionary. Every row of a series is built by one
 * literal (normalise.ts), so the rows have the first row's fields in its order and come back exactly as they were.
 */
type Columns<Row> = { [Field in keyof Row]: Row[Field][] };

type PackedText = Omit<WeatherPayload, "hours" | "windows" | "instantTemperatures"> & {
  hours: Columns<WeatherPayload["hours"][number]>;
  windows: Columns<WeatherPayload["windows"][number]>;
  instantTemperatures: Columns<WeatherPayload["instantTemperatures"][number]>;
};

function toColumns<Row extends object>(rows: Row[]): Columns<Row> {
  const fields = Object.keys(rows[0] ?? {}) as (keyof Row)[];
  return Object.fromEntries(fields.map((field) => [field, rows.map((row) => row[field])])) as Columns<Row>;
}

function fromColumns<Row extends object>(columns: Columns<Row>): Row[] {
  const fields = Object.keys(columns) as (keyof Row)[];
  const count = fields.length === 0 ? 0 : columns[fields[0]].length;
  return Array.from({ length: count }, (_, index) => Object.fromEntries(fields.map((field) => [field, columns[field][index]])) as Row);
}

/** Bytes the stored payload holds, with the object around it. */
export function storedPayloadBytes(stored: StoredPayload): number {
  return stored.packed.length + STORED_OVERHEAD_BYTES;
}

const STORED_OVERHEAD_BYTES = 200;
