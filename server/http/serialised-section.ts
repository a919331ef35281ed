import { createHash } from "node:crypto";
import { ownedBytes } from "../memory/owned-bytes.ts";

/** Sections up to this size are kept as text, larger ones as UTF-8 bytes: text is encoded again for every response. */
const TEXT_SECTION_MAX_BYTES = 1024;

/**
 * An answer's `data` section, or a bare one's whole body (JSON, CSV, iCalendar, a page), serialised once by its owner
 * (a kept answer, a route's constant document) so the request path never serialises it again.
 */
export class SerialisedSection {
  readonly content: string | Buffer<ArrayBuffer>;
  readonly byteLength: number;
  readonly etag: string;
  constructor(text: string) {
    this.byteLength = Buffer.byteLength(text);
    // Bytes of their own: `Buffer.from` may slice a shared 8 KB slab a kept answer would keep alive (owned-bytes.ts).
    this.content = this.byteLength <= TEXT_SECTION_MAX_BYTES ? text : ownedBytes(text);
    // Weak, over `data` only: a new requestId or generatedAt does not change it.
    this.etag = `W/"${createHash("sha256").update(text).digest("base64url").slice(0, 27)}"`;
  }

  /** The section as bytes, for a compressed head. */
  bytes(): Buffer {
    return typeof this.content === "string" ? Buffer.from(this.content) : this.content;
  }
}
