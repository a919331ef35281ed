import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { publishTargetFrom } from "../../cli/config.ts";
import { DEFAULT_REGISTRY_DIR } from "../../cli/file-locations.ts";
import { publishToObjectStore } from "../../cli/publish/publish-generation.ts";
import { publishRegistry, readRegistrySources } from "../../cli/registry/build-registry.ts";
import { DATA_FILES } from "../../schemas/data-files.ts";
import { GENERATION_FILES } from "../../schemas/index-manifest.ts";
import { removeEconomicsDataDirs, sampleDataDir } from "../support/economics-index.ts";
import { type ObjectStoreStandin, startObjectStoreStandin } from "./object-store-process.ts";

const BUCKET = "publish-test";

describe("publishing to an S3-compatible store (s3rver) named only by the SDK's endpoint variables", () => {
  let root: string;
  let store: ObjectStoreStandin;
  let dataDir: string;
  /** The test's own client, to look at what the store holds. */
  let reader: S3Client;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "object-store-publish-"));
    store = await startObjectStoreStandin(join(root, "store"), BUCKET);
    // The sample archive's index, with the registry a publication carries beside it.
    dataDir = join(root, "data");
    mkdirSync(dataDir);
    copyFileSync(join(await sampleDataDir(), DATA_FILES.index), join(dataDir, DATA_FILES.index));
    publishRegistry(readRegistrySources(new Date(), DEFAULT_REGISTRY_DIR), dataDir);
    reader = new S3Client({
      endpoint: store.endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
  });
  afterEach(() => vi.unstubAllEnvs());
  afterAll(async () => {
    reader?.destroy();
    await store?.kill();
    rmSync(root, { recursive: true, force: true });
    removeEconomicsDataDirs();
  });

  /** The SDK reads its settings from the process's environment: set for one test, put back after it. */
  const stubEnv = (env: Record<string, string>) => {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  };
  const keysUnder = async (prefix: string) =>
    ((await reader.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${prefix}/` }))).Contents ?? []).map(
      (object) => object.Key!,
    );

  it("sets path-style requests and checksums only where required by itself when an endpoint is named, unless told otherwise", () => {
    const url = "s3://bucket/prefix";
    expect(publishTargetFrom({}, url)).toMatchObject({
      pathStyle: false,
      checksumsWhenRequired: { request: false, response: false },
    });
    expect(publishTargetFrom({ AWS_ENDPOINT_URL_S3: store.endpoint }, url)).toMatchObject({
      pathStyle: true,
      checksumsWhenRequired: { request: true, response: true },
    });
    expect(
      publishTargetFrom(
        {
          AWS_ENDPOINT_URL: store.endpoint,
          AWS_REQUEST_CHECKSUM_CALCULATION: "WHEN_SUPPORTED",
          SERVICE_OBJECT_STORE_PATH_STYLE: "false",
        },
        url,
      ),
    ).toMatchObject({ pathStyle: false, checksumsWhenRequired: { request: false, response: true } });
  });

  it("publishes every file whole, the manifest naming the generation by its index's publication instant", async () => {
    stubEnv(store.env);
    const location = publishTargetFrom(store.env, `s3://${BUCKET}/whole`)!;
    const { manifest } = (await publishToObjectStore(location, dataDir, new Date()))!;
    for (const file of GENERATION_FILES) {
      const head = await reader.send(
        new HeadObjectCommand({ Bucket: BUCKET, Key: `whole/${manifest.files[file].key}` }),
      );
      expect(head.ContentLength).toBe(manifest.files[file].bytes);
    }
    const db = new Database(join(dataDir, DATA_FILES.index), { readonly: true });
    try {
      const fact = db.prepare("SELECT value FROM publication WHERE key = 'publishedAt'").pluck().get();
      expect(manifest.publishedAt).toBe(fact);
    } finally {
      db.close();
    }
  });

  it("leaves nothing behind when the store keeps other bytes than were sent (streaming checksums forced on)", async () => {
    // The operator's own setting wins over the default: s3rver then stores the aws-chunked framing as the object.
    stubEnv({ ...store.env, AWS_REQUEST_CHECKSUM_CALCULATION: "WHEN_SUPPORTED" });
    const location = publishTargetFrom(
      { ...store.env, AWS_REQUEST_CHECKSUM_CALCULATION: "WHEN_SUPPORTED" },
      `s3://${BUCKET}/refused`,
    )!;
    await expect(publishToObjectStore(location, dataDir, new Date())).rejects.toThrow(
      /did not keep the bytes sent, and the object was removed/,
    );
    expect(await keysUnder("refused")).toEqual([]);
  });
});
