/**
 * Bytes kept for long (cache entries, kept answers) in an allocation of their own. `Buffer.from` of a short text
 * takes a slice of an 8 KB pool slab, and zlib's output is a slice of a 16 KB chunk: a kept slice keeps the whole
 * slab alive, which made the weather cache hold several times the bytes it counted.
 */
export function ownedBytes(source: string | Uint8Array): Buffer<ArrayBuffer> {
  if (typeof source === "string") {
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(source));
    bytes.write(source);
    return bytes;
  }
  const bytes = Buffer.allocUnsafeSlow(source.byteLength);
  bytes.set(source);
  return bytes;
}

/**
 * A text kept for long (a kept answer's section) as one flat string of its own: a concatenation is a tree of its
 * parts, which every write would walk again, and a slice keeps its whole parent alive.
 */
export function ownedText(text: string): string {
  return Buffer.from(text).toString();
}

const BEYOND_LATIN_1 = /[^\u0000-\u00ff]/;

/** Bytes V8 holds for a text: one a character, or two when any character is beyond Latin-1. */
export function textHeldBytes(text: string): number {
  return BEYOND_LATIN_1.test(text) ? text.length * 2 : text.length;
}
