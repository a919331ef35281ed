import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MANIFEST_NAME, publishedFileKey } from "../../schemas/index-manifest.ts";
import { PUBLISHED_FILE_RECHECK_MS } from "../../server/files/reloading-file.ts";
import { createLogger } from "../../server/observability/logger.ts";
import { createIndexFollower } from "../../server/storage/index-follower.ts";
import { downloadPublishedFile } from "../../server/storage/object-store.ts";
import { removeEconomicsDataDirs, sampleDataDir } from "../support/economics-index.ts";
import { BUCKET, manifestFor, PREFIX, StoreStandin, sha256 } from "../support/hostile-object-store.ts";
import { type RunningService, startService } from "../support/service.ts";

describe("a follower of a hostile object store", () => {
  const store = new StoreStandin();
  let client: S3Client;
  let service: RunningService;
  const logs: Record<string, unknown>[] = [];

  beforeAll(async () => {
    await store.start();
    client = new S3Client({
      endpoint: store.endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      requestChecksumCalculation: "WHEN_REQUIRED",
      credentials: { accessKeyId: "attack", secretAccessKey: "attack" },
      maxAttempts: 1,
    });
    service = await startService({ seedDataDir: await sampleDataDir() });
  });
  afterAll(async () => {
    client?.destroy();
    await service?.close();
    await store.close();
    removeEconomicsDataDirs();
  });

  function follower(idleTimeoutMs = 5_000) {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logs.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const logger = createLogger("debug", { write: (line: string) => sink.write(line) });
    return createIndexFollower({
      client,
      source: { bucket: BUCKET, prefix: PREFIX, pathStyle: true },
      dataDir: service.dataDir,
      pollIntervalMs: 60_000,
      logger,
      idleTimeoutMs,
    });
  }

  const live = () => ({
    index: readFileSync(join(service.dataDir, "index.sqlite")),
    registry: readFileSync(join(service.dataDir, "registry.json")),
  });

  // MANIFEST_MAX_BYTES is checked against Content-Length only: a manifest sent chunked (no length) is read whole
  // into memory by transformToString, however large.
  it("stops reading a manifest sent without a length once it is larger than a manifest can be", async () => {
    store.sent.clear();
    store.handler = (_request, response, key) => {
      if (key === `${PREFIX}/${MANIFEST_NAME}`) return store.stream(response, key, 64 * 1024 * 1024, { length: false });
      response.writeHead(404).end();
    };
    const one = follower();
    expect(await one.pollOnce()).toBe("failed");
    await one.stop();
    expect(store.sent.get(`${PREFIX}/${MANIFEST_NAME}`)).toBeLessThan(8 * 1024 * 1024);
  });

  // A manifest that says it is larger than one can be was read up to the limit anyway, and the warning then named
  // neither the manifest nor the size it claimed. The store here holds its body back: only a reader that never asks
  // for it fails at once.
  it("refuses a manifest whose length is more than a manifest can be without reading it, naming that length", async () => {
    const claimed = 1024 * 1024;
    const manifestKey = `${PREFIX}/${MANIFEST_NAME}`;
    // Its own record: the test before may still be recording into store.sent as its connection closes.
    let bodyStarted = false;
    store.handler = (_request, response, key) => {
      if (key !== manifestKey) return void response.writeHead(404).end();
      response.writeHead(200, { etag: '"big"', "content-length": String(claimed) }).flushHeaders();
      const later = setTimeout(() => {
        bodyStarted = true;
        response.end(Buffer.alloc(claimed, 0x20));
      }, 1_000);
      response.once("close", () => clearTimeout(later));
    };
    logs.length = 0;
    const one = follower();
    expect(await one.pollOnce()).toBe("failed");
    await one.stop();
    const warning = logs.find((line) => line.level === "warn");
    expect(warning?.error).toBe(`the index manifest is ${claimed} bytes, more than a manifest can be`);
    expect(bodyStarted).toBe(false);
  });

  // The stall limit once ran from before the request to the first byte of the body: a store slow to answer but then
  // sending was given up on, though it had never been silent for a whole limit.
  it("gives a download's body its own stall limit once the headers have arrived", async () => {
    const bytes = Buffer.alloc(256 * 1024, 0x61);
    const published = { key: publishedFileKey("index", sha256(bytes)), sha256: sha256(bytes), bytes: bytes.length };
    const idleTimeoutMs = 1_000;
    store.handler = (_request, response) => {
      const headers = setTimeout(() => {
        response.writeHead(200, { "content-length": String(bytes.length) }).flushHeaders();
        body = setTimeout(() => response.end(bytes), idleTimeoutMs * 0.6);
      }, idleTimeoutMs * 0.6);
      let body: NodeJS.Timeout | undefined;
      response.once("close", () => {
        clearTimeout(headers);
        clearTimeout(body);
      });
    };
    const dir = mkdtempSync(join(tmpdir(), "slow-store-"));
    try {
      const path = join(dir, "index.download");
      await downloadPublishedFile(client, { bucket: BUCKET, prefix: PREFIX, pathStyle: true }, published, path, {
        idleTimeoutMs,
        signal: new AbortController().signal,
      });
      expect(readFileSync(path).equals(bytes)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // The download is hashed and counted as it streams, but compared with the manifest only at its end: an object
  // far larger than the size the manifest names is written to the data directory's disk in full first.
  it("stops a download as soon as it exceeds the size the manifest names", async () => {
    const files = live();
    const fakeIndex = Buffer.from("an index the store will never send");
    const manifest = manifestFor({ index: fakeIndex, registry: files.registry });
    const indexKey = `${PREFIX}/${manifest.files.index.key}`;
    store.sent.clear();
    store.handler = (_request, response, key) => {
      if (key === `${PREFIX}/${MANIFEST_NAME}`)
        return void response
          .writeHead(200, { etag: '"m1"', "content-type": "application/json" })
          .end(JSON.stringify(manifest));
      if (key === indexKey) return store.stream(response, key, 96 * 1024 * 1024, { length: true });
      response.writeHead(404).end();
    };
    const one = follower();
    expect(await one.pollOnce()).toBe("failed");
    await one.stop();
    expect(live().index.equals(files.index)).toBe(true);
    expect(store.sent.get(indexKey)).toBeLessThan(16 * 1024 * 1024);
  });

  // The hash proves the bytes are the ones the manifest names, not that they are a registry. A generation whose
  // registry is not JSON (a careless publisher, a truncated upload re-hashed) is swapped in, and every route that
  // reads the registry then answers 500 INTERNAL on every instance following the store.
  it("never swaps in a registry the server cannot read, so registry routes keep answering", async () => {
    const files = live();
    const brokenRegistry = Buffer.from('{"series": [ this is not json');
    const manifest = manifestFor({ index: files.index, registry: brokenRegistry });
    store.handler = (_request, response, key) => {
      if (key === `${PREFIX}/${MANIFEST_NAME}`)
        return void response
          .writeHead(200, { etag: '"m2"', "content-type": "application/json" })
          .end(JSON.stringify(manifest));
      if (key === `${PREFIX}/${manifest.files.registry.key}`)
        return void response
          .writeHead(200, { etag: '"r"', "content-length": String(brokenRegistry.length) })
          .end(brokenRegistry);
      response.writeHead(404).end();
    };
    const one = follower();
    const outcome = await one.pollOnce();
    await one.stop();
    // The server looks at published files again once per PUBLISHED_FILE_RECHECK_MS.
    await sleep(PUBLISHED_FILE_RECHECK_MS * 3);
    const answer = await service.request("/api/v1/economics/series", {
      headers: { authorization: `Bearer ${service.createKey(["economics:read"])}` },
    });
    expect(answer.status, `poll ${outcome}: ${answer.text.slice(0, 200)}`).not.toBe(500);
  });

  // The log line of a download whose bytes are not the ones the manifest names said "not the <n> bytes the manifest
  // names" when the sizes agreed and the hash did not: a byte count where the expected hash was meant.
  it("names the hash the manifest expects when a download of the right size has other bytes", async () => {
    const files = live();
    // The manifest names an index one byte away from the live one; the store sends the live one, of the same size.
    const named = Buffer.from(files.index);
    named.writeUInt8(named.readUInt8(named.length - 1) ^ 0xff, named.length - 1);
    const manifest = manifestFor({ index: named, registry: files.registry });
    store.handler = (_request, response, key) => {
      if (key === `${PREFIX}/${MANIFEST_NAME}`)
        return void response.writeHead(200, { etag: '"m-hash"' }).end(JSON.stringify(manifest));
      if (key === `${PREFIX}/${manifest.files.index.key}`)
        return void response.writeHead(200, { "content-length": String(files.index.length) }).end(files.index);
      response.writeHead(404).end();
    };
    logs.length = 0;
    const one = follower();
    expect(await one.pollOnce()).toBe("failed");
    await one.stop();
    const warned = logs.map((line) => String(line.error ?? "")).find((line) => line.includes("arrived"));
    expect(warned).toContain(`arrived with SHA-256 ${sha256(files.index)}`);
    expect(warned).toContain(`not the SHA-256 ${manifest.files.index.sha256} the manifest names`);
  });

  it("refuses manifests that name objects outside their own content-addressed names", async () => {
    const files = live();
    const good = manifestFor({ index: files.index, registry: files.registry });
    const variants: unknown[] = [
      {
        ...good,
        files: {
          ...good.files,
          index: { ...good.files.index, key: `index/../../../etc/${good.files.index.sha256}.sqlite` },
        },
      },
      {
        ...good,
        files: { ...good.files, index: { ...good.files.index, key: `/index/${good.files.index.sha256}.sqlite` } },
      },
      {
        ...good,
        files: {
          ...good.files,
          index: { ...good.files.index, key: `index/${good.files.index.sha256.toUpperCase()}.sqlite` },
        },
      },
      {
        ...good,
        files: {
          ...good.files,
          registry: { ...good.files.registry, key: publishedFileKey("index", good.files.registry.sha256) },
        },
      },
      { ...good, files: { ...good.files, index: { ...good.files.index, bytes: 1e300 } } },
      { ...good, files: { ...good.files, index: { ...good.files.index, bytes: -1 } } },
      { ...good, generation: "0000000000000000" },
      { ...good, formatVersion: 2 },
      { ...good, files: { ...good.files, ["__proto__"]: { polluted: true } } },
    ];
    for (const variant of variants) {
      const requested: string[] = [];
      store.handler = (_request, response, key) => {
        requested.push(key);
        if (key === `${PREFIX}/${MANIFEST_NAME}`)
          return void response
            .writeHead(200, { etag: `"${sha256(JSON.stringify(variant))}"` })
            .end(JSON.stringify(variant));
        response.writeHead(404).end();
      };
      const one = follower();
      const outcome = await one.pollOnce();
      await one.stop();
      expect(requested, JSON.stringify(variant).slice(0, 200)).toEqual([`${PREFIX}/${MANIFEST_NAME}`]);
      expect(["failed", "current"]).toContain(outcome);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
