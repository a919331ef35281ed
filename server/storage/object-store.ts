import { S3Client } from "@aws-sdk/client-s3";
import type { ObjectStoreLocation } from "../../schemas/index-manifest.ts";

/**
 * An S3 client for a store location. Everything but path-style addressing and, for a store other than AWS, checksums
 * only where required (cli/config.ts) comes from the SDK's standard settings: endpoint (`AWS_ENDPOINT_URL_S3` or
 * `AWS_ENDPOINT_URL`; AWS itself when unset), region (`AWS_REGION`), credentials (`AWS_ACCESS_KEY_ID`/
 * `AWS_SECRET_ACCESS_KEY`, a profile, or a workload identity) and checksums (`AWS_REQUEST_CHECKSUM_CALCULATION`,
 * `AWS_RESPONSE_CHECKSUM_VALIDATION`, which win when set), so any S3-compatible store works as documented for the SDK.
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

/** The full object name of a name under the location's prefix. */
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

/** What a log line says of a failed store request or download: the message, the system code, the store's status. */
export function storeErrorFacts(error: unknown): { error: string; code?: string; status?: number } {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const status = storeStatusOf(error);
  return {
    error: error instanceof Error ? error.message || error.name : String(error),
    ...(typeof code === "string" ? { code } : {}),
    ...(status !== undefined ? { status } : {}),
  };
}
