import { createHash } from "node:crypto";
import { DATA_FILES } from "./data-files.ts";
import { dateTime, int, obj, str } from "./json-schema.ts";
import { compileAssertion } from "./validator.ts";

/**
 * What `service ingest --publish-to` writes to object storage and `service serve --index-from` reads: the files of
 * one published generation, each under a name made of its content's SHA-256 (so an object, once written, never
 * changes), and a small manifest naming the current generation, written last.
 */

/** The data-directory files a generation carries, published together by one ingestion run. */
export const GENERATION_FILES = ["index", "registry"] as const satisfies readonly (keyof typeof DATA_FILES)[];
export type GenerationFile = (typeof GENERATION_FILES)[number];

/** The manifest's object name under the store prefix. */
export const MANIFEST_NAME = "manifest.json";

/** A manifest is a few hundred bytes; anything much larger is not one. */
export const MANIFEST_MAX_BYTES = 64 * 1024;

export interface PublishedFile {
  /** Object name under the store prefix: `<file>/<sha256>.<extension>`. */
  key: string;
  /** Lower-case hex SHA-256 of the file's bytes. */
  sha256: string;
  bytes: number;
}

export interface IndexManifest {
  formatVersion: 1;
  /** Short name of the generation for logs: derived from the files' hashes, so equal files give an equal name. */
  generation: string;
  publishedAt: string;
  files: Record<GenerationFile, PublishedFile>;
}

/** The content-addressed object name of a generation file: `index/<sha256>.sqlite`, `registry/<sha256>.json`. */
export function publishedFileKey(file: GenerationFile, sha256: string): string {
  const name = DATA_FILES[file];
  return `${file}/${sha256}${name.slice(name.lastIndexOf("."))}`;
}

export function generationName(files: Record<GenerationFile, { sha256: string }>): string {
  const hash = createHash("sha256");
  for (const file of GENERATION_FILES) hash.update(`${file}:${files[file].sha256}\n`);
  return hash.digest("hex").slice(0, 16);
}

const SHA256 = "^[0-9a-f]{64}$";
const publishedFileSchema = (file: GenerationFile) =>
  obj({
    key: str({ pattern: `^${file}/[0-9a-f]{64}\\.[a-z]+$` }),
    sha256: str({ pattern: SHA256 }),
    bytes: int({ minimum: 1 }),
  });

const manifestSchema = obj({
  formatVersion: { const: 1 },
  generation: str({ pattern: "^[0-9a-f]{16}$" }),
  publishedAt: dateTime(),
  files: obj(Object.fromEntries(GENERATION_FILES.map((file) => [file, publishedFileSchema(file)]))),
});

const assertManifestShape = compileAssertion<IndexManifest>(manifestSchema, "index manifest");

/**
 * A manifest read from the store, checked: its shape, each file's name being the one its hash gives, and the
 * generation name matching the files. Throws with what is wrong.
 */
export function parseIndexManifest(text: string): IndexManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error("index manifest is not JSON");
  }
  const manifest = assertManifestShape(value);
  for (const file of GENERATION_FILES) {
    const { key, sha256 } = manifest.files[file];
    if (key !== publishedFileKey(file, sha256))
      throw new Error(`index manifest is invalid: /files/${file}/key is not named by its hash`);
  }
  if (manifest.generation !== generationName(manifest.files))
    throw new Error("index manifest is invalid: /generation does not match its files");
  return manifest;
}

/** A place in object storage, named `s3://bucket/prefix` (AWS S3 or any S3-compatible store). */
export interface ObjectStoreLocation {
  bucket: string;
  /** Object-name prefix without a trailing slash; empty for the bucket's root. */
  prefix: string;
  /** Path-style requests (`endpoint/bucket/key`), which most S3-compatible stores other than AWS need. */
  pathStyle: boolean;
  /**
   * Checksums only where the S3 API requires them: S3-compatible stores other than AWS (MinIO, Ceph, s3rver, …) do not
   * all understand the SDK's default streaming checksums, and some store their framing as the object's bytes.
   */
  checksumsWhenRequired?: { request: boolean; response: boolean };
}
