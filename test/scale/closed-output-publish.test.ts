import { spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, existsSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCli } from "../support/long-running-cli.ts";
import { type ObjectStoreStandin, startObjectStoreStandin } from "./object-store-process.ts";

const BUCKET = "closed-output-index";
const SAMPLES_DIR = fileURLToPath(new URL("../../data/samples/", import.meta.url));
const BIN = fileURLToPath(new URL("../../cli/bin.js", import.meta.url));
const ingestArgs = (prefix: string) => [
  "ingest",
  "--from-archive",
  SAMPLES_DIR,
  "--source",
  "central-bank-meetings-calendar",
  "--publish-to",
  `s3://${BUCKET}/${prefix}`,
];

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

  const runEnv = (dataDir: string) => ({
    ...store.env,
    PATH: process.env.PATH ?? "",
    SERVICE_DATA_DIR: join(root, dataDir),
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  });
  const manifestBytes = async (prefix: string) => {
    const client = new S3Client({
      endpoint: store.endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
    return (await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `${prefix}/manifest.json` }))).ContentLength;
  };

  it("still uploads the index and exits 0 when the reader closed the pipe", async () => {
    const running = startCli(ingestArgs("closed-pipe"), runEnv("closed-pipe"));
    running.child.stdout!.destroy();
    const [code, signal] = await once(running.child, "close");
    expect({ code, signal }, running.stderr()).toEqual({ code: 0, signal: null });
    expect(await manifestBytes("closed-pipe")).toBeGreaterThan(0);
  }, 60_000);

  it.skipIf(!existsSync("/dev/full"))(
    "still uploads the index and releases its lock on a full disk, saying so with exit code 1",
    async () => {
      const full = openSync("/dev/full", "w");
      try {
        const child = spawn(process.execPath, [BIN, ...ingestArgs("full-disk")], {
          env: runEnv("full-disk"),
          stdio: ["ignore", full, "pipe"],
        });
        let stderr = "";
        child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        const [code] = await once(child, "close");
        expect(code, stderr).toBe(1);
        expect(stderr).toContain("error: the output could not be written: ENOSPC");
        expect(await manifestBytes("full-disk")).toBeGreaterThan(0);
        expect(existsSync(join(root, "full-disk", "ingest.lock"))).toBe(false);
      } finally {
        closeSync(full);
      }
    },
    60_000,
  );
});
