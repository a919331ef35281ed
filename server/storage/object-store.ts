import { createWriteStream } from "node:fs";
import { open } from "node:fs/promises";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { ObjectStoreLocation, PublishedFile } from "../../schemas/index-manifest.ts";
import { digesting } from "../files/file-digest.ts";

/**
 * An S3 client for a store location. All but path-style addressing and, off AWS, checksums only where required
 * (cli/config.ts) comes from the SDK's standard settings (docs/configuration.md).
 */
export function createObjectStoreClient(location: ObjectStoreLocation): S3Client {
  const checksums = location.checksumsWhenRequired;
  return new S3Client({
    forcePathStyle: location.pathStyle,
    requestHandler: { connectionTimeout: CONNECTION_TIMEOUT_MS },
    ...(checksums?.request ? { requestChecksumCalculation: "WHEN_REQUIRED" as const } : {}),
    ...(checksums?.response ? { responseChecksumValidation: "WHEN_REQUIRED" as const } : {}),
  });
}

/** A store that does not accept a connection within this long is down for this attempt. */
const CONNECTION_TIMEOUT_MS = 5_000;

export function objectKey(location: ObjectStoreLocation, name: string): string {
  return location.prefix ? `${location.prefix}/${name}` : name;
}

/** How logs and messages name an object: `s3://bucket/key`. */
export function objectUrl(location: ObjectStoreLocation, name: string): string {
  return `s3://${location.bucket}/${objectKey(location, name)}`;
}

/** The HTTP status a store answered a failed request with, when it answered at all. */
export function storeStatusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

/** What a log line says of a failed store request or download. */
export function storeErrorFacts(error: unknown): { error: string; code?: string; status?: number } {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const status = storeStatusOf(error);
  return {
    error: error instanceof Error ? error.message || error.name : String(error),
    ...(typeof code === "string" ? { code } : {}),
    ...(status !== undefined ? { status } : {}),
  };
}

/**
 * Streams one published file to `path`, hashing it; throws unless size and hash are the manifest's. A silent store
 * must not hold every later poll: the headers and each chunk get `idleTimeoutMs` (not the final fsync).
 */
export async function downloadPublishedFile(
  client: S3Client,
  location: ObjectStoreLocation,
  published: PublishedFile,
  path: string,
  options: { idleTimeoutMs: number; signal: AbortSignal },
): Promise<void> {
  const url = objectUrl(location, published.key);
  const stall = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const rearm = () => {
    clearTimeout(timer);
    timer = setTimeout(
      () => stall.abort(new Error(`${url} stalled: nothing received for ${options.idleTimeoutMs} ms`)),
      options.idleTimeoutMs,
    );
  };
  const signal = AbortSignal.any([options.signal, stall.signal]);
  try {
    rearm();
    const command = new GetObjectCommand({ Bucket: location.bucket, Key: objectKey(location, published.key) });
    const answer = await client.send(command, { abortSignal: signal });
    rearm();
    if (answer.ContentLength !== undefined && answer.ContentLength !== published.bytes) {
      (answer.Body as Readable).destroy();
      throw new Error(`${url} is ${answer.ContentLength} bytes, not the ${published.bytes} bytes the manifest names`);
    }
    const hashing = digesting(published.bytes, rearm);
    await pipeline(answer.Body as Readable, hashing.stage, createWriteStream(path), { signal });
    const arrived = hashing.digest();
    if (arrived.bytes !== published.bytes)
      throw new Error(`${url} arrived as ${arrived.bytes} bytes, not the ${published.bytes} bytes the manifest names`);
    if (arrived.sha256 !== published.sha256)
      throw new Error(
        `${url} arrived with SHA-256 ${arrived.sha256}, not the SHA-256 ${published.sha256} the manifest names`,
      );
    clearTimeout(timer);
    const handle = await open(path, "r");
    await handle.sync().finally(() => handle.close());
  } catch (error) {
    throw stall.signal.reason ?? error;
  } finally {
    clearTimeout(timer);
  }
}
