/**
 * A body in parts: a kept `data` section goes out from the bytes it is kept in, not copied per response into buffers
 * the C allocator's arena grows to hold and keeps (docs/performance.md).
 */
export class SplicedBody {
  readonly parts: readonly [Buffer, Buffer, string];
  readonly byteLength: number;
  constructor(parts: readonly [Buffer, Buffer, string], byteLength: number) {
    this.parts = parts;
    this.byteLength = byteLength;
  }

  /** The body in one buffer, for srvx's Response on the h3 path. */
  joined(): Buffer<ArrayBuffer> {
    const [head, section, tail] = this.parts;
    return Buffer.concat([head, section, Buffer.from(tail)]);
  }

  toString(): string {
    return this.joined().toString();
  }
}

/** What a success body is: text or bytes, whole, or spliced from parts. */
export type ResponseBody = string | Buffer<ArrayBuffer> | SplicedBody;

export function bodyByteLength(body: ResponseBody): number {
  return typeof body === "string"
    ? Buffer.byteLength(body)
    : body instanceof SplicedBody
      ? body.byteLength
      : body.length;
}
