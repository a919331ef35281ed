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
