import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type GenerationFile,
  generationName,
  type IndexManifest,
  publishedFileKey,
} from "../../schemas/index-manifest.ts";

/**
 * A hostile or careless object store behind `serve --index-from` (server/storage/index-follower.ts): a minimal
 * path-style S3 stand-in on 127.0.0.1 whose every answer the test decides, so that the follower meets manifests and
 * objects no honest publisher writes.
 */

export const BUCKET = "attack";
export const PREFIX = "fleet";
export const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

type Handler = (request: IncomingMessage, response: ServerResponse, key: string) => void;

/** Answers GET /bucket/key with the handler the test installs; counts the bytes it managed to send per key. */
export class StoreStandin {
  handler: Handler = (_request, response) =>
    void response.writeHead(404, { "content-type": "application/xml" }).end("<Error><Code>NoSuchKey</Code></Error>");
  readonly sent = new Map<string, number>();
  private server: Server = createServer((request, response) => {
    const key = decodeURIComponent((request.url ?? "").split("?")[0]!.slice(`/${BUCKET}/`.length));
    this.handler(request, response, key);
  });
  endpoint = "";

  async start(): Promise<void> {
    this.server.listen(0, "127.0.0.1");
    await new Promise((resolve) => this.server.once("listening", resolve));
    this.endpoint = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Streams `total` bytes of `fill` (chunked when `length` is false), stopping when the client goes away. */
  stream(response: ServerResponse, key: string, total: number, options: { length: boolean; fill?: number }): void {
    response.writeHead(200, { etag: `"${key}"`, ...(options.length ? { "content-length": String(total) } : {}) });
    const chunk = Buffer.alloc(64 * 1024, options.fill ?? 0x20);
    let written = 0;
    const pump = () => {
      while (written < total) {
        if (response.destroyed) return;
        const piece = chunk.subarray(0, Math.min(chunk.length, total - written));
        written += piece.length;
        this.sent.set(key, written);
        if (!response.write(piece)) return void response.once("drain", pump);
      }
      response.end();
    };
    response.on("close", () => this.sent.set(key, Math.min(written, this.sent.get(key) ?? written)));
    pump();
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export function manifestFor(
  files: Record<GenerationFile, Buffer>,
  sizes: Partial<Record<GenerationFile, number>> = {},
): IndexManifest {
  const published = Object.fromEntries(
    (Object.keys(files) as GenerationFile[]).map((file) => {
      const hash = sha256(files[file]);
      return [file, { key: publishedFileKey(file, hash), sha256: hash, bytes: sizes[file] ?? files[file].length }];
    }),
  ) as IndexManifest["files"];
  return {
    formatVersion: 1,
    generation: generationName(published),
    publishedAt: "2026-11-21T07:00:00.000Z",
    files: published,
  };
}
