import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

/** What a file's bytes are: their SHA-256 (lower-case hex) and how many there are. */
export interface Digest {
  sha256: string;
  bytes: number;
}

/**
 * A pipeline stage that passes bytes on while hashing and counting them; `digest()` once they have all passed. With
 * `maxBytes`, a stream that brings more fails as soon as it does, rather than after filling a disk. `onChunk` hears of
 * every arrival (a stall guard re-arms on it).
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
    digest: (): Digest => ({ sha256: hash.digest("hex"), bytes }),
  };
}

/**
 * The digest of a file, read through an open descriptor when one is given: a file replaced by rename meanwhile is
 * then still the one hashed, so the caller can go on reading exactly the bytes whose hash it holds.
 */
export async function digestFile(path: string, fd?: number): Promise<Digest> {
  const hashing = digesting();
  const source = fd === undefined ? createReadStream(path) : createReadStream(path, { fd, start: 0, autoClose: false });
  for await (const _ of hashing.stage(source));
  return hashing.digest();
}
