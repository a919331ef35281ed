import { deflateRawSync, inflateRawSync } from "node:zlib";
import { ownedBytes } from "../memory/owned-bytes.ts";
import type { WeatherPayload } from "./model.ts";

/**
 * A normalised payload as the cache keeps it: its JSON text, deflated. A point then weighs about 5 KB instead of
 * the 45 KB of its text (or more as objects), its bytes are known exactly, and it is inflated only when a route
 * renders a variant it has not rendered before (renderings.ts keeps what it renders). `serial` names this payload
 * among all the process has stored, so renderings are never confused with those of a newer payload for the point.
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

export function packPayload(payload: WeatherPayload): PackedPayload {
  return { packed: ownedBytes(deflateRawSync(JSON.stringify(payload))), sourceId: payload.current.source.id };
}

export function storePayload({ packed, sourceId }: PackedPayload): StoredPayload {
  lastSerial += 1;
  return { serial: lastSerial, packed: Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength), sourceId };
}

export function readPayload(stored: StoredPayload): WeatherPayload {
  return JSON.parse(inflateRawSync(stored.packed).toString()) as WeatherPayload;
}

/** Bytes the stored payload holds, with the object around it. */
export function storedPayloadBytes(stored: StoredPayload): number {
  return stored.packed.length + STORED_OVERHEAD_BYTES;
}

const STORED_OVERHEAD_BYTES = 200;
