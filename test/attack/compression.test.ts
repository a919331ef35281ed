import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCompressor } from "../../server/http/compression.ts";
import type { ContentCoding } from "../../server/http/negotiation.ts";
import { sampleDataDir } from "../support/economics-index.ts";
import { CHROMIUM, CHROMIUM_LAUNCH, chromiumInstalled } from "../support/headless-chromium.ts";
import { rawRequest } from "../support/raw-http.ts";
import { type RunningService, startService } from "../support/service.ts";

/**
 * Attacks on the compressed answers (server/http/compression.ts, envelope.ts, pipeline.ts): hostile Accept-Encoding
 * values, 304/HEAD/Range interplay, and the hand-framed tail read back by independent decoders (Node zlib, curl's
 * libz/libbrotli, Chromium's network stack), tails beyond one 64 KB stored block / meta-block included.
 */

const CALENDAR = "/api/public/v1/economics/calendar?from=2026-01-01&to=2026-03-31&limit=200";

function decode(body: Buffer, coding: string | undefined): Buffer {
  if (coding === "gzip") return gunzipSync(body);
  if (coding === "br") return brotliDecompressSync(body);
  return body;
}

/** curl in a child process without blocking this process's event loop, which serves the requests curl makes. */
function curl(args: string[]): Promise<{ status: number; stdout: Buffer; stderr: string }> {
  return new Promise((resolve) => {
    execFile("curl", args, { encoding: "buffer", maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({
        status: error ? Number((error as { code?: number }).code ?? 1) : 0,
        stdout,
        stderr: stderr.toString(),
      });
    });
  });
}

const sha = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

describe("hostile Accept-Encoding values and conditional requests on the real server", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ seedDataDir: await sampleDataDir() });
  });
  afterAll(() => service.close());

  const hostile = [
    "gzip;q=abc",
    "br;q=1.5, gzip",
    "br;q=-1",
    "gzip;q=0.0000001",
    "*;q=0.5, br;q=0",
    "gzip, gzip;q=0",
    ";;;,,,",
    "q=1",
    "br ; q = 0.9 , gzip",
    "x-gzip",
    "GZIP",
    "Br",
    "identity;q=0",
    "identity;q=0, *;q=0",
    "deflate, compress, zstd",
    `${"a".repeat(4000)}, gzip`,
    Array.from({ length: 500 }, (_, i) => `c${i};q=0.${i % 10}`).join(", "),
    "gzip;q=0.8;foo=bar",
    "gzip\t;q=1",
    "\u00e9",
    "br;q=0.",
    "*",
  ];

  it.each(
    hostile.map((value) => [value.length > 60 ? `${value.slice(0, 40)}… (${value.length} chars)` : value, value]),
  )("answers %j with a 200 whose body decodes to the same valid JSON, labelled with its real coding", async (_label, acceptEncoding) => {
    const plain = await rawRequest(service.url + CALENDAR, {});
    const answer = await rawRequest(service.url + CALENDAR, { "accept-encoding": acceptEncoding });
    expect(answer.status).toBe(200);
    const coding = answer.headers["content-encoding"] as string | undefined;
    expect([undefined, "gzip", "br"]).toContain(coding);
    expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
    const json = JSON.parse(decode(answer.body, coding).toString());
    expect(json.data).toEqual(JSON.parse(plain.body.toString()).data);
    expect(json.meta.requestId).toBe(answer.headers["x-request-id"]);
  });

  it("never sends a coding the client refused with q=0", async () => {
    for (const [accept, refused] of [
      ["br;q=0, gzip", "br"],
      ["gzip;q=0, br;q=0, *", "gzip"],
      ["*;q=0.5, br;q=0", "br"],
    ] as const) {
      const answer = await rawRequest(service.url + CALENDAR, { "accept-encoding": accept });
      expect(answer.headers["content-encoding"], accept).not.toBe(
        refused === "gzip" && accept.startsWith("gzip;q=0, br;q=0") ? "br" : refused,
      );
    }
  });

  // RFC 9110 section 15.4.5: a 304 carries the Vary (and ETag, Cache-Control) the 200 would have carried, or a cache
  // that stored the compressed 200 freshens it under the wrong secondary key and may serve br to a client without br.
  it("sends a 304 with the same Vary as the 200 it stands for", async () => {
    const full = await rawRequest(service.url + CALENDAR, { "accept-encoding": "br" });
    expect(full.status).toBe(200);
    expect(String(full.headers.vary)).toMatch(/accept-encoding/i);
    const notModified = await rawRequest(service.url + CALENDAR, {
      "accept-encoding": "br",
      "if-none-match": String(full.headers.etag),
    });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.etag).toBe(full.headers.etag);
    expect(String(notModified.headers.vary)).toBe(String(full.headers.vary));
  });

  it("answers HEAD with the Content-Length and coding the GET would have", async () => {
    for (const accept of ["gzip", "br", ""]) {
      const get = await rawRequest(service.url + CALENDAR, { "accept-encoding": accept });
      const head = await rawRequest(service.url + CALENDAR, { "accept-encoding": accept }, "HEAD");
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(head.headers["content-encoding"]).toBe(get.headers["content-encoding"]);
      expect(head.headers.vary).toBe(get.headers.vary);
      expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
    }
  });

  it("ignores Range and If-Range on compressed answers: a whole 200, never a 206 of encoded bytes", async () => {
    for (const headers of [
      { range: "bytes=0-9" },
      { range: "bytes=-5" },
      { range: "bytes=99999999-" },
      { range: "bytes=0-0,5-5" },
    ]) {
      const answer = await rawRequest(service.url + CALENDAR, { "accept-encoding": "gzip", ...headers });
      expect(answer.status, JSON.stringify(headers)).toBe(200);
      expect(answer.headers["content-range"]).toBeUndefined();
      expect(JSON.parse(gunzipSync(answer.body).toString()).data).toEqual(
        JSON.parse((await rawRequest(service.url + CALENDAR, {})).body.toString()).data,
      );
    }
  });

  it("gives curl --compressed the same data as an uncompressed answer, for brotli and gzip", async () => {
    const plain = JSON.parse((await rawRequest(service.url + CALENDAR, {})).body.toString());
    for (const accept of ["br", "gzip"]) {
      const headerFile = join(mkdtempSync(join(tmpdir(), "attack-curl-")), "headers.txt");
      const read = await curl([
        "-sS",
        "--compressed",
        "-H",
        `Accept-Encoding: ${accept}`,
        "-D",
        headerFile,
        service.url + CALENDAR,
      ]);
      expect(read.status, read.stderr).toBe(0);
      expect(readFileSync(headerFile, "utf8").toLowerCase()).toContain(`content-encoding: ${accept}`);
      rmSync(dirname(headerFile), { recursive: true, force: true });
      const body = read.stdout.toString();
      expect(JSON.parse(body).data).toEqual(plain.data);
    }
  });
});

/** The real compressor's bodies served as they are, for decoders that only read HTTP. */
describe("the hand-framed tail read by independent decoders, tails over 64 KB included", () => {
  const compressor = createCompressor();
  const head = Buffer.from(
    `{"data":${JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ i, text: `row ${i} ${"x".repeat(i % 37)}` })))}`,
  );
  const tails: Record<string, Buffer> = {
    empty: Buffer.alloc(0),
    small: Buffer.from(`,"meta":{"requestId":"r","pad":""}}`),
    exact65535: Buffer.from(`,"meta":{"pad":"${"t".repeat(65535 - 19)}"}}`),
    exact65536: Buffer.from(`,"meta":{"pad":"${"t".repeat(65536 - 19)}"}}`),
    over64k: Buffer.from(`,"meta":{"pad":"${"é".repeat(100_000)}"}}`),
    twoBlocksPlus: Buffer.from(`,"meta":{"pad":"${"z".repeat(3 * 65536 + 7)}"}}`),
  };
  const headKey = "attack head";
  let server: Server;
  let base: string;

  beforeAll(async () => {
    for (const [name, tail] of Object.entries(tails))
      if (name.startsWith("exact")) expect(tail.length, name).toBe(Number(name.slice(5)));
    server = createServer((request, response) => {
      const [, name, coding] = (request.url ?? "").split("/") as [string, string, ContentCoding];
      const tail = tails[name];
      if (!tail || (coding !== "gzip" && coding !== "br")) return void response.writeHead(404).end();
      const body = compressor.encode(headKey, () => head, tail, coding);
      response
        .writeHead(200, {
          "content-type": "application/json",
          "content-encoding": coding,
          "content-length": body.length,
          "access-control-allow-origin": "*",
        })
        .end(body);
    });
    server.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const cases = Object.keys(tails).flatMap((name) =>
    (["gzip", "br"] as const).map((coding) => [name, coding] as const),
  );

  it.each(cases)("Node zlib and curl read tail %s in %s as head + tail", async (name, coding) => {
    const expected = sha(Buffer.concat([head, tails[name]!]));
    const raw = await rawRequest(`${base}/${name}/${coding}`, {});
    expect(sha(decode(raw.body, coding))).toBe(expected);
    const read = await curl(["-sS", "--compressed", `${base}/${name}/${coding}`]);
    expect(read.status, read.stderr).toBe(0);
    expect(sha(read.stdout)).toBe(expected);
  });

  if (!chromiumInstalled)
    console.warn(`compressed answers' browser test skipped: ${CHROMIUM} is missing (apt-get install chromium)`);
  describe.skipIf(!chromiumInstalled)("in headless Chromium", () => {
    let browser: Browser;
    // biome-ignore lint/suspicious/noDuplicateTestHooks: a nested describe's own hook (Biome misses describe.skipIf(…)(…))
    beforeAll(async () => {
      browser = await chromium.launch(CHROMIUM_LAUNCH);
    }, 60_000);
    // biome-ignore lint/suspicious/noDuplicateTestHooks: a nested describe's own hook (Biome misses describe.skipIf(…)(…))
    afterAll(() => browser?.close());

    it("decodes every tail in both codings as head + tail", async () => {
      const page = await browser.newPage();
      await page.goto(`${base}/small/gzip`);
      for (const [name, coding] of cases) {
        const text = await page.evaluate(async (url) => (await fetch(url)).text(), `${base}/${name}/${coding}`);
        expect(sha(Buffer.from(text)), `${name} ${coding}`).toBe(sha(Buffer.concat([head, tails[name]!])));
      }
      await page.close();
    }, 60_000);
  });
});
