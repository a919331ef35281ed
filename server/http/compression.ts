import { brotliCompressSync, constants, crc32, deflateRawSync } from "node:zlib";
import { LRUCache } from "lru-cache";
import { ownedBytes } from "../memory/owned-bytes.ts";
import type { ContentCoding } from "./negotiation.ts";

/**
 * Compressed answers without compressing per response: a body's constant head (the serialised `data`) is compressed
 * once, ending on a flush; each response appends its own short tail uncompressed and closes the stream, in deflate's
 * stored blocks (RFC 1951 section 3.2.4) or brotli's uncompressed meta-blocks (RFC 7932 section 9.2). zlib cannot
 * append to a flushed stream, so those framing bytes are written here.
 */

/** Bodies below this are sent as they are: compression would save less than its framing and time. */
export const COMPRESSION_MIN_BYTES = 1024;

/**
 * A cache of its own beside the answers: a head is named by its data's digest, so answers of many URLs (and a weather
 * answer rebuilt every second) share one. A head leaves when the bound needs its room, least recently used first.
 */
export const DEFAULT_COMPRESSED_HEAD_BYTES = 32 * 1024 * 1024;

/**
 * Per entry beyond its compressed bytes: the entry, its Buffer objects and the cache's own bookkeeping
 * (performance.md).
 */
const ENTRY_OVERHEAD_BYTES = 512;

// Brotli's quality 5: a ratio close to gzip's best in a fraction of the highest qualities' time (docs/performance.md).
const BROTLI_QUALITY = 5;

interface DeflatedHead {
  deflated: Buffer;
  crc: number;
  length: number;
}

interface CompressedHeads {
  gzip?: DeflatedHead;
  br?: Buffer;
}

export interface Compressor {
  /**
   * `head` + `tail` in `coding`; `head` is called only when no compressed form is kept under `headKey` (its digest).
   */
  encode(headKey: string, head: () => Buffer, tail: Buffer, coding: ContentCoding): Buffer<ArrayBuffer>;
  /** Bytes currently held. */
  readonly bytes: number;
}

export function createCompressor(maxBytes: number = DEFAULT_COMPRESSED_HEAD_BYTES): Compressor {
  const heads = new LRUCache<string, CompressedHeads>({
    maxSize: Math.max(1, maxBytes),
    sizeCalculation: (entry, key) =>
      key.length * 2 + ENTRY_OVERHEAD_BYTES + (entry.gzip?.deflated.length ?? 0) + (entry.br?.length ?? 0),
  });
  const compressedHead = <C extends ContentCoding>(
    headKey: string,
    head: () => Buffer,
    coding: C,
  ): NonNullable<CompressedHeads[C]> => {
    const entry = heads.get(headKey) ?? {};
    const known = entry[coding];
    if (known) return known as NonNullable<CompressedHeads[C]>;
    const bytes = head();
    const made = coding === "gzip" ? deflateHead(bytes) : brotliHead(bytes);
    // Set again so the cache measures it with its new member.
    if (maxBytes > 0) heads.set(headKey, { ...entry, [coding]: made });
    return made as NonNullable<CompressedHeads[C]>;
  };
  return {
    encode(headKey, head, tail, coding) {
      return coding === "gzip"
        ? gzipBody(compressedHead(headKey, head, "gzip"), tail)
        : brotliBody(compressedHead(headKey, head, "br"), tail);
    },
    get bytes() {
      return heads.calculatedSize;
    },
  };
}

// Kept heads own their bytes, not a slice of zlib's 16 KB output chunk (owned-bytes.ts).
function deflateHead(head: Buffer): DeflatedHead {
  return {
    deflated: ownedBytes(deflateRawSync(head, { finishFlush: constants.Z_SYNC_FLUSH })),
    crc: crc32(head),
    length: head.length,
  };
}

function brotliHead(head: Buffer): Buffer {
  return ownedBytes(
    brotliCompressSync(head, {
      finishFlush: constants.BROTLI_OPERATION_FLUSH,
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: head.length,
        // A window no larger than the head: the default 4 MB window makes the encoder allocate megabytes per call.
        [constants.BROTLI_PARAM_LGWIN]: Math.min(
          constants.BROTLI_MAX_WINDOW_BITS,
          Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(head.length + 1))),
        ),
      },
    }),
  );
}

/** RFC 1952: no name, no time, unknown operating system. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
const STORED_BLOCK_MAX = 0xffff;

function gzipBody(head: DeflatedHead, tail: Buffer): Buffer<ArrayBuffer> {
  const blocks = Math.max(1, Math.ceil(tail.length / STORED_BLOCK_MAX));
  const body = Buffer.allocUnsafe(GZIP_HEADER.length + head.deflated.length + blocks * 5 + tail.length + 8);
  let at = GZIP_HEADER.copy(body, 0);
  at += head.deflated.copy(body, at);
  // After a sync flush the stream is byte-aligned: a stored block is one header byte (BFINAL, BTYPE 00), LEN, NLEN.
  for (let block = 0; block < blocks; block++) {
    const start = block * STORED_BLOCK_MAX;
    const length = Math.min(STORED_BLOCK_MAX, tail.length - start);
    at = body.writeUInt8(block === blocks - 1 ? 1 : 0, at);
    at = body.writeUInt16LE(length, at);
    at = body.writeUInt16LE(~length & 0xffff, at);
    at += tail.copy(body, at, start, start + length);
  }
  at = body.writeUInt32LE(crc32(tail, head.crc), at);
  body.writeUInt32LE((head.length + tail.length) >>> 0, at);
  return body;
}

const BROTLI_META_BLOCK_MAX = 0x10000;
/** ISLAST and ISLASTEMPTY: the empty last meta-block that ends a brotli stream. */
const BROTLI_END = 0x03;

function brotliBody(head: Buffer, tail: Buffer): Buffer<ArrayBuffer> {
  const blocks = Math.ceil(tail.length / BROTLI_META_BLOCK_MAX);
  const body = Buffer.allocUnsafe(head.length + blocks * 3 + tail.length + 1);
  let at = head.copy(body, 0);
  // A flushed brotli stream is byte-aligned. An uncompressed meta-block header, low bits first: ISLAST 0,
  // MNIBBLES 0 (four nibbles), MLEN-1 in 16 bits, ISUNCOMPRESSED 1, then zero bits to the byte boundary: 3 bytes.
  for (let start = 0; start < tail.length; start += BROTLI_META_BLOCK_MAX) {
    const length = Math.min(BROTLI_META_BLOCK_MAX, tail.length - start);
    at = body.writeUIntLE(((length - 1) << 3) | (1 << 19), at, 3);
    at += tail.copy(body, at, start, start + length);
  }
  body.writeUInt8(BROTLI_END, at);
  return body;
}
