import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";

/** What a file's bytes are: their SHA-256 (lower-case hex) and how many there are. */
export interface Digest {
  sha256: string;
  bytes: number;
}

/** A pass-through stream that hashes and counts the bytes flowing through it; `digest()` once they have all passed. */
export class DigestingStream extends Transform {
  private readonly hash = createHash("sha256");
  private count = 0;
  private readonly maxBytes: number;

  /** With `maxBytes`, a stream that brings more fails as soon as it does, rather than after filling a disk. */
  constructor(maxBytes = Number.POSITIVE_INFINITY) {
    super();
    this.maxBytes = maxBytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.count += chunk.length;
    if (this.count > this.maxBytes) return done(new Error(`more than the ${this.maxBytes} bytes expected arrived`));
    this.hash.update(chunk);
    done(null, chunk);
  }

  digest(): Digest {
    return { sha256: this.hash.digest("hex"), bytes: this.count };
  }
}

/**
 * The digest of a file, read through an open descriptor when one is given: a file replaced by rename meanwhile is
 * then still the one hashed, so the caller can go on reading exactly the bytes whose hash it holds.
 */
export async function digestFile(path: string, fd?: number): Promise<Digest> {
  const digesting = new DigestingStream();
  const source = fd === undefined ? createReadStream(path) : createReadStream(path, { fd, start: 0, autoClose: false });
  await pipeline(source, digesting, async (chunks: AsyncIterable<Buffer>) => {
    for await (const chunk of chunks) void chunk;
  });
  return digesting.digest();
}
