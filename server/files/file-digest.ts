import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

/**
 * A pipeline stage hashing and counting the bytes it passes on; `digest()`, once all have passed, gives their SHA-256
 * (lower-case hex) and count. A stream bringing more than `maxBytes` fails at once, not after filling a disk.
 * `onChunk` hears of each chunk (a stall guard's re-arm).
 */
export function digesting(maxBytes = Number.POSITIVE_INFINITY, onChunk = () => {}) {
  const hash = createHash("sha256");
  let bytes = 0;
  return {
    async *stage(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
      for await (const chunk of source) {
        onChunk();
        bytes += chunk.length;
        if (bytes > maxBytes) throw new Error(`more than the ${maxBytes} bytes expected arrived`);
        hash.update(chunk);
        yield chunk;
      }
    },
    digest: () => ({ sha256: hash.digest("hex"), bytes }),
  };
}

/** A file's digest, through `fd` when given: the caller then reads the very bytes hashed, even if it was replaced. */
export async function digestFile(path: string, fd?: number) {
  const hashing = digesting();
  const source = fd === undefined ? createReadStream(path) : createReadStream(path, { fd, start: 0, autoClose: false });
  for await (const _ of hashing.stage(source));
  return hashing.digest();
}
