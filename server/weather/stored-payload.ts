import type { WeatherPayload } from "./model.ts";

/**
 * A normalised payload as the cache keeps it: its JSON text, a few tens of KB with no object graph behind it, so
 * the cache's bytes are known exactly. `serial` names this payload among all the process has stored, so renderings
 * of it can be kept under that name and are never confused with those of a newer payload for the same point.
 */
export interface StoredPayload {
  serial: number;
  text: string;
}

let lastSerial = 0;

export function storePayload(payload: WeatherPayload): StoredPayload {
  lastSerial += 1;
  return { serial: lastSerial, text: JSON.stringify(payload) };
}

export function readPayload(stored: StoredPayload): WeatherPayload {
  return JSON.parse(stored.text) as WeatherPayload;
}

/** Bytes the stored payload holds (JSON text is one byte a character in V8, except non-Latin-1 text). */
export function storedPayloadBytes(stored: StoredPayload): number {
  return stored.text.length;
}
