/**
 * Bytes kept for long (cache entries, kept answers) in an allocation of their own: a slice of `Buffer.from`'s 8 KB
 * pool or of zlib's 16 KB chunks keeps the whole slab alive, so a cache would hold far more than it counts.
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
