import { once } from "node:events";
import { closeSync, createReadStream, existsSync, openSync, type ReadStream } from "node:fs";
import { join } from "node:path";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import Database from "better-sqlite3";
import { DATA_FILES } from "../../schemas/data-files.ts";
import type { ObjectStoreLocation } from "../../schemas/index-manifest.ts";
import {
  GENERATION_FILES,
  type GenerationFile,
  generationName,
  type IndexManifest,
  MANIFEST_MAX_BYTES,
  MANIFEST_NAME,
  type PublishedFile,
  parseIndexManifest,
  publishedFileKey,
} from "../../schemas/index-manifest.ts";
import { digestFile } from "../../server/files/file-digest.ts";
import { publicationFacts } from "../../server/storage/index-storage.ts";
import { createObjectStoreClient, objectKey, objectUrl, storeStatusOf } from "../../server/storage/object-store.ts";

const CONTENT_TYPES: Record<GenerationFile, string> = {
  index: "application/vnd.sqlite3",
  registry: "application/json",
};

/**
 * Publishes the data directory's current index and registry as one generation: each file under its content hash
 * (skipped when the store already holds it), then the manifest naming them, last, so a reader never finds a
 * manifest naming a file that is missing or partly written. Run under the ingestion lock, after a local publication.
 * With `unlessStored`, nothing (null) when the store's manifest already names the local generation.
 */
export async function publishToObjectStore(
  location: ObjectStoreLocation,
  dataDir: string,
  now: Date,
  options: { unlessStored?: boolean } = {},
): Promise<{ manifest: IndexManifest; url: string } | null> {
  const url = objectUrl(location, MANIFEST_NAME);
  const client = createObjectStoreClient(location);
  try {
    if (options.unlessStored) {
      const local = localGeneration(dataDir);
      if (local === null || (await storedGeneration(client, location)) === local) return null;
    }
    return { manifest: await publishGeneration(client, location, dataDir, now), url };
  } catch (error) {
    throw new Error(
      `publishing to ${url} failed (the index stays published locally): ${error instanceof Error ? error.message || error.name : String(error)}`,
    );
  } finally {
    client.destroy();
  }
}

export async function publishGeneration(
  client: S3Client,
  location: ObjectStoreLocation,
  dataDir: string,
  now: Date,
): Promise<IndexManifest> {
  const files = {} as Record<GenerationFile, PublishedFile>;
  for (const file of GENERATION_FILES)
    files[file] = await uploadFile(client, location, file, join(dataDir, DATA_FILES[file]));
  const manifest: IndexManifest = {
    formatVersion: 1,
    generation: generationName(files),
    publishedAt: indexPublishedAt(join(dataDir, DATA_FILES.index)) ?? now.toISOString(),
    files,
  };
  await client.send(
    new PutObjectCommand({
      Bucket: location.bucket,
      Key: objectKey(location, MANIFEST_NAME),
      Body: `${JSON.stringify(manifest, null, 2)}\n`,
      ContentType: "application/json",
      // Readers poll it with If-None-Match; no cache between them and the store may keep an old one.
      CacheControl: "no-cache",
    }),
  );
  return manifest;
}

/**
 * Uploads one file under its content hash. The file is hashed and sent through one open descriptor, so a file
 * replaced meanwhile (by a later rename) cannot put other bytes under the hash. The stored size is checked after
 * the upload: a store that kept something else than the bytes sent is an error here, not at every reader, and a failed
 * upload removes what it may have left under the name (a store that kept a wrong-size object, or part of one).
 */
async function uploadFile(
  client: S3Client,
  location: ObjectStoreLocation,
  file: GenerationFile,
  path: string,
): Promise<PublishedFile> {
  const fd = openSync(path, "r");
  // The upload's body, once made, owns the descriptor: it closes it when it is done reading, never under a read.
  let body: ReadStream | undefined;
  try {
    const { sha256, bytes } = await digestFile(path, fd);
    const key = publishedFileKey(file, sha256);
    if ((await storedSize(client, location, key)) !== bytes) {
      body = createReadStream(path, { fd, start: 0 });
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: location.bucket,
            Key: objectKey(location, key),
            Body: body,
            ContentLength: bytes,
            ContentType: CONTENT_TYPES[file],
          }),
        );
        const stored = await storedSize(client, location, key);
        if (stored !== bytes) {
          throw new Error(
            `${objectUrl(location, key)} held ${stored ?? "no"} bytes after the upload of ${bytes}: the store did not keep the bytes sent, ` +
              "and the object was removed (a store that does not understand the SDK's streaming checksums needs " +
              "AWS_REQUEST_CHECKSUM_CALCULATION=WHEN_REQUIRED, the default when AWS_ENDPOINT_URL_S3 names the store)",
          );
        }
      } catch (error) {
        await removeQuietly(client, location, key);
        throw error;
      }
    }
    return { key, sha256, bytes };
  } finally {
    if (body) await closedStream(body);
    else closeSync(fd);
  }
}

/**
 * Closes a file stream and its descriptor once its reads are done. The SDK may be done with a body while its last read
 * is still under way: a descriptor closed under that read failed it (EBADF) with nobody listening, ending the process.
 */
async function closedStream(stream: ReadStream): Promise<void> {
  if (stream.closed) return;
  const closed = once(stream, "close").catch(() => undefined);
  stream.destroy();
  await closed;
}

/**
 * When the index was published locally: the instant a generation is named by everywhere operators see it (the
 * `generation` of log lines, the `service_index_generation` metric), so the manifest says the same.
 */
function indexPublishedAt(path: string): string | null {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return publicationFacts(db).publishedAt;
  } finally {
    db.close();
  }
}

/**
 * Removes what a failed upload may have left under `key`. Only a name the upload found empty or wrong is ever written
 * (uploadFile), so nothing good is lost; a store that cannot be reached keeps nothing a reader would take either, since
 * no manifest names the object and the next publication checks its size again.
 */
/**
 * The generation the store's manifest names (its publication instant), null when it holds none. A run that published
 * nothing itself still uploads the local generation when the store names another: an earlier run's upload that failed
 * is made by the next run, so followers are never left on an older generation.
 */
async function storedGeneration(client: S3Client, location: ObjectStoreLocation): Promise<string | null> {
  try {
    const answer = await client.send(
      new GetObjectCommand({ Bucket: location.bucket, Key: objectKey(location, MANIFEST_NAME) }),
    );
    if ((answer.ContentLength ?? 0) > MANIFEST_MAX_BYTES) return null;
    return parseIndexManifest((await answer.Body?.transformToString("utf8")) ?? "").publishedAt;
  } catch (error) {
    if (storeStatusOf(error) === 404) return null;
    throw error;
  }
}

/** The publication instant of the data directory's index, null without one. */
function localGeneration(dataDir: string): string | null {
  const path = join(dataDir, DATA_FILES.index);
  return existsSync(path) ? indexPublishedAt(path) : null;
}

async function removeQuietly(client: S3Client, location: ObjectStoreLocation, key: string): Promise<void> {
  try {
    await client.send(new DeleteObjectCommand({ Bucket: location.bucket, Key: objectKey(location, key) }));
  } catch {
    // The upload's own error is the one reported.
  }
}

async function storedSize(client: S3Client, location: ObjectStoreLocation, key: string): Promise<number | null> {
  try {
    const head = await client.send(new HeadObjectCommand({ Bucket: location.bucket, Key: objectKey(location, key) }));
    return head.ContentLength ?? null;
  } catch (error) {
    // AWS answers 403, not 404, for a missing object to a writer without s3:ListBucket: either way, upload it.
    const status = storeStatusOf(error);
    if (status === 404 || status === 403) return null;
    throw error;
  }
}
