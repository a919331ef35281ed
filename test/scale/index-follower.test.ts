import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import Database from "better-sqlite3";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishGeneration } from "../../cli/publish/publish-generation.ts";
import type { ObjectStoreLocation } from "../../schemas/index-manifest.ts";
import { type IndexManifest, MANIFEST_NAME, parseIndexManifest } from "../../schemas/index-manifest.ts";
import { digestFile } from "../../server/files/file-digest.ts";
import { createLogger } from "../../server/observability/logger.ts";
import { createIndexFollower, type IndexFollower } from "../../server/storage/index-follower.ts";
import { objectKey } from "../../server/storage/object-store.ts";
import { closedPort } from "../support/closed-port.ts";
import { runCli } from "../support/run-cli.ts";
import { type ObjectStoreStandin, startObjectStoreStandin } from "./object-store-process.ts";

const BUCKET = "follower-test";

const location: ObjectStoreLocation = { bucket: BUCKET, prefix: "deployments/one", pathStyle: true };

/** Every publisher's base URL: pointed at a closed port, every source of a run fails. */
const PUBLISHER_URL_VARIABLES = [
  "SERVICE_BLS_URL",
  "SERVICE_BLS_API_URL",
  "SERVICE_EUROSTAT_URL",
  "SERVICE_ECB_URL",
  "SERVICE_ECB_DATA_URL",
];

/** `service ingest --publish-to` with every publisher's base URL at a closed port: every source of the run fails. */
async function ingestWithPublishersDown(
  dataDir: string,
  target: ObjectStoreLocation,
  storeEnv: Record<string, string>,
) {
  const unreachable = `http://127.0.0.1:${await closedPort()}`;
  return runCli(["ingest", "--data-dir", dataDir, "--publish-to", `s3://${BUCKET}/${target.prefix}`], {
    ...storeEnv,
    ...Object.fromEntries(PUBLISHER_URL_VARIABLES.map((variable) => [variable, unreachable])),
    SERVICE_INGEST_RETRIES: "0",
    SERVICE_INGEST_TIMEOUT_MS: "2000",
  });
}

describe("following the index published to object storage", () => {
  let root: string;
  let store: ObjectStoreStandin;
  let client: S3Client;
  let publisherDir: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "index-follower-"));
    store = await startObjectStoreStandin(join(root, "store"), BUCKET);
    client = new S3Client({
      endpoint: store.endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      requestChecksumCalculation: "WHEN_REQUIRED",
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
    publisherDir = join(root, "publisher");
    const ingest = runCli(["ingest", "--from-archive", "data/samples", "--data-dir", publisherDir]);
    expect(ingest.stdout, ingest.stderr).toMatch(/, index published$/m);
  });
  afterAll(async () => {
    client?.destroy();
    await store?.kill();
    rmSync(root, { recursive: true, force: true });
  });

  function follower(
    dataDir: string,
    idleTimeoutMs?: number,
  ): { follower: IndexFollower; logs: Record<string, unknown>[]; polls: () => Promise<Record<string, number>> } {
    const metrics = new Registry();
    const logs: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logs.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const logger = createLogger("debug", { write: (line: string) => sink.write(line) });
    return {
      follower: createIndexFollower({
        client,
        source: location,
        dataDir,
        pollIntervalMs: 60_000,
        logger,
        idleTimeoutMs,
        metrics,
      }),
      logs,
      // service_index_polls_total by outcome, as /metrics shows it.
      polls: async () => {
        const { values } = await metrics.getSingleMetric("service_index_polls_total")!.get();
        return Object.fromEntries(values.map(({ labels, value }) => [String(labels.outcome), value]));
      },
    };
  }

  /** A publisher directory whose index differs from the first by one publication fact: a modified copy, made here. */
  function modifiedPublisher(name: string, publishedAt: string): string {
    const dir = join(root, name);
    cpSync(publisherDir, dir, { recursive: true });
    const index = new Database(join(dir, "index.sqlite"));
    index.prepare("UPDATE publication SET value = ? WHERE key = 'publishedAt'").run(publishedAt);
    index.close();
    return dir;
  }

  async function liveHashes(dataDir: string) {
    return {
      index: (await digestFile(join(dataDir, "index.sqlite"))).sha256,
      registry: (await digestFile(join(dataDir, "registry.json"))).sha256,
    };
  }

  const leftovers = (dataDir: string) => readdirSync(dataDir).filter((name) => name.endsWith(".download"));

  let first: IndexManifest;
  const followerDir = () => join(root, "follower");

  it("finds nothing before a publication, then installs the generation and answers a repeated poll with 304", async () => {
    const { follower: one, polls } = follower(followerDir());
    expect(await one.pollOnce()).toBe("absent");
    expect(existsSync(join(followerDir(), "index.sqlite"))).toBe(false);

    first = await publishGeneration(client, location, publisherDir, new Date());
    expect(await one.pollOnce()).toBe("installed");
    expect(await liveHashes(followerDir())).toEqual({
      index: first.files.index.sha256,
      registry: first.files.registry.sha256,
    });
    expect(
      readFileSync(join(followerDir(), "index.sqlite")).equals(readFileSync(join(publisherDir, "index.sqlite"))),
    ).toBe(true);
    expect(one.generation()).toBe(first.generation);

    expect(await one.pollOnce()).toBe("unchanged");
    expect(await polls()).toEqual({ absent: 1, installed: 1, unchanged: 1, current: 0, failed: 0 });
    await one.stop();
  });

  it("takes files already in the data directory as installed, without downloading them again", async () => {
    const { follower: restarted, logs, polls } = follower(followerDir());
    expect(await restarted.pollOnce()).toBe("current");
    expect(await polls()).toMatchObject({ current: 1, installed: 0 });
    expect(logs.some((line) => line.msg === "index generation already in the data directory")).toBe(true);
    await restarted.stop();
  });

  it("keeps the current files when a downloaded file does not match its hash", async () => {
    const next = await publishGeneration(
      client,
      location,
      modifiedPublisher("tampered", "2026-01-02T00:00:00.000Z"),
      new Date(),
    );
    // The object under the new index's name replaced by other bytes of the same length: what a damaged store would serve.
    const tampered = readFileSync(join(root, "tampered", "index.sqlite"));
    tampered.writeUInt8(tampered.readUInt8(tampered.length - 1) ^ 0xff, tampered.length - 1);
    await client.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: objectKey(location, next.files.index.key), Body: tampered }),
    );

    const { follower: one, logs, polls } = follower(followerDir());
    expect(await one.pollOnce()).toBe("failed");
    expect(await liveHashes(followerDir())).toEqual({
      index: first.files.index.sha256,
      registry: first.files.registry.sha256,
    });
    expect(leftovers(followerDir())).toEqual([]);
    expect(await polls()).toMatchObject({ failed: 1, installed: 0 });
    const warning = logs.find((line) => line.level === "warn");
    expect(String(warning?.error)).toContain(
      `arrived with SHA-256 ${createHash("sha256").update(tampered).digest("hex")}, not the SHA-256 ${next.files.index.sha256} the manifest names`,
    );
    await one.stop();
  });

  it("gives up a download that stalls, keeps the current files, and takes the generation once the store sends it", async () => {
    const next = await publishGeneration(
      client,
      location,
      modifiedPublisher("stalled", "2026-01-03T00:00:00.000Z"),
      new Date(),
    );
    await store.stallDownloads(64 * 1024);
    const { follower: one, logs } = follower(followerDir(), 500);
    expect(await one.pollOnce()).toBe("failed");
    expect(String(logs.find((line) => line.level === "warn")?.error)).toMatch(/stalled/);
    expect((await liveHashes(followerDir())).index).toBe(first.files.index.sha256);
    expect(leftovers(followerDir())).toEqual([]);

    await store.stallDownloads(null);
    expect(await one.pollOnce()).toBe("installed");
    expect((await liveHashes(followerDir())).index).toBe(next.files.index.sha256);
    await one.stop();
  });

  /** A writer's data directory (a copy of the publisher's) whose generation is published under `prefix`. */
  async function writerPublishedTo(prefix: string): Promise<{ location: ObjectStoreLocation; writerDir: string }> {
    const writerDir = join(root, prefix.replaceAll("/", "-"));
    cpSync(publisherDir, writerDir, { recursive: true });
    await publishGeneration(client, { ...location, prefix }, writerDir, new Date());
    return { location: { ...location, prefix }, writerDir };
  }

  it("takes the generation of a run in which every source failed: the same data with its checks, the index alone", async () => {
    const { location: checksLocation, writerDir } = await writerPublishedTo("deployments/checks");
    const readerDir = join(root, "checks-reader");
    const one = createIndexFollower({
      client,
      source: checksLocation,
      dataDir: readerDir,
      pollIntervalMs: 60_000,
      logger: createLogger("silent"),
    });
    expect(await one.pollOnce()).toBe("installed");
    const registryBefore = readFileSync(join(readerDir, "registry.json"));

    const run = await ingestWithPublishersDown(writerDir, checksLocation, store.env);
    expect(run.stdout, run.stderr).toMatch(/: failed, source checks published$/m);
    expect(run.stdout).toMatch(/^generation \S+ published to /m);

    expect(await one.pollOnce()).toBe("installed");
    expect(readFileSync(join(readerDir, "index.sqlite")).equals(readFileSync(join(writerDir, "index.sqlite")))).toBe(
      true,
    );
    expect(readFileSync(join(readerDir, "registry.json")).equals(registryBefore)).toBe(true);
    const index = new Database(join(readerDir, "index.sqlite"), { readonly: true });
    try {
      expect(new Set(index.prepare("SELECT latest_check FROM source_checks").pluck().all())).toEqual(
        new Set(["incomplete"]),
      );
    } finally {
      index.close();
    }
    await one.stop();
  });

  it("uploads with the next run a checks-only generation whose upload failed, though that run publishes nothing", async () => {
    const { location: retryLocation, writerDir } = await writerPublishedTo("deployments/retry");
    const failingRun = (env: Record<string, string>) => ingestWithPublishersDown(writerDir, retryLocation, env);
    const storeDown = await failingRun({ ...store.env, AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${await closedPort()}` });
    expect(storeDown.stdout, storeDown.stderr).toMatch(/: failed, source checks published$/m);
    expect(storeDown.stderr).toMatch(/publishing to \S+ failed \(the index stays published locally\)/);

    const next = await failingRun(store.env);
    expect(next.stdout, next.stderr).toMatch(/: failed, nothing published$/m);
    const local = new Database(join(writerDir, "index.sqlite"), { readonly: true });
    const localPublishedAt = local.prepare("SELECT value FROM publication WHERE key = 'publishedAt'").pluck().get();
    local.close();
    expect(next.stdout).toContain(`generation ${localPublishedAt} published to `);

    // A third run finds the store naming the local generation and uploads nothing.
    const third = await failingRun(store.env);
    expect(third.stdout, third.stderr).not.toMatch(/^generation /m);
  });

  it("keeps the current files while the store is down or its manifest is not one, and counts each failed poll", async () => {
    const installed = await liveHashes(followerDir());
    const { follower: one, logs, polls } = follower(followerDir());
    expect(await one.pollOnce()).toBe("current");

    await store.kill();
    expect(await one.pollOnce()).toBe("failed");
    expect(String(logs.filter((line) => line.level === "warn").at(-1)?.code)).toMatch(/^(ECONNREFUSED|ECONNRESET)$/);
    await store.restart();

    const manifestKey = objectKey(location, MANIFEST_NAME);
    const good = parseIndexManifest(
      await (await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: manifestKey }))).Body!.transformToString(),
    );
    await client.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: manifestKey,
        Body: JSON.stringify({
          ...good,
          files: { ...good.files, index: { ...good.files.index, key: "index/../../elsewhere.sqlite" } },
        }),
      }),
    );
    expect(await one.pollOnce()).toBe("failed");
    expect(String(logs.filter((line) => line.level === "warn").at(-1)?.error)).toMatch(/index manifest is invalid/);
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: manifestKey, Body: "<html>not a manifest</html>" }));
    expect(await one.pollOnce()).toBe("failed");

    expect(await liveHashes(followerDir())).toEqual(installed);
    expect(await polls()).toMatchObject({ current: 1, failed: 3, installed: 0 });
    await one.stop();
  });
});
