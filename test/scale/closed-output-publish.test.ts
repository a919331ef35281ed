import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCli } from "../support/long-running-cli.ts";
import { startObjectStoreStandin, type ObjectStoreStandin } from "./object-store-process.ts";

const BUCKET = "closed-output-index";
const SAMPLES_DIR = fileURLToPath(new URL("../../data/samples/", import.meta.url));

/** `ingest --publish-to … | head`: the summary meets a closed pipe before the upload, which must still happen. */
describe("ingest --publish-to with a stdout nobody reads", () => {
  let root: string;
  let store: ObjectStoreStandin;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "closed-output-publish-"));
    store = await startObjectStoreStandin(join(root, "store"), BUCKET);
  });
  afterAll(async () => {
    await store?.kill();
    rmSync(root, { recursive: true, force: true });
  });

  it("still uploads the index and exits 0", async () => {
    const running = startCli(
      ["ingest", "--from-archive", SAMPLES_DIR, "--source", "central-bank-meetings-calendar", "--publish-to", `s3://${BUCKET}/production`],
      { ...store.env, PATH: process.env.PATH ?? "", SERVICE_DATA_DIR: join(root, "var"), AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
    );
    running.child.stdout!.destroy();
    const [code, signal] = await once(running.child, "close");
    expect({ code, signal }, running.stderr()).toEqual({ code: 0, signal: null });
    const client = new S3Client({ endpoint: store.endpoint, region: "us-east-1", forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
    const manifest = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: "production/manifest.json" }));
    expect(manifest.ContentLength).toBeGreaterThan(0);
  }, 60_000);
});
