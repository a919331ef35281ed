import { brotliDecompressSync, gunzipSync } from "node:zlib";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCompressor } from "../../server/http/compression.ts";
import { type ContentCoding, chooseCoding } from "../../server/http/negotiation.ts";
import { sampleDataDir } from "../support/economics-index.ts";
import { rawRequest } from "../support/raw-http.ts";
import { type RunningService, startService } from "../support/service.ts";

function decode(body: Buffer, coding: ContentCoding): Buffer {
  return coding === "gzip" ? gunzipSync(body) : brotliDecompressSync(body);
}

describe("compressing a constant head once and a tail per response", () => {
  it("gives streams that standard decoders read back as head then tail, whatever the sizes", () => {
    const compressor = createCompressor();
    let heads = 0;
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 5000 }),
        fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.constant(new Uint8Array(70_000).fill(65))),
        fc.constantFrom<ContentCoding>("gzip", "br"),
        (head, tail, coding) => {
          heads += 1;
          const owner = `head ${heads}`;
          const body = compressor.encode(owner, () => Buffer.from(head), Buffer.from(tail), coding);
          expect(decode(body, coding).equals(Buffer.concat([head, tail]))).toBe(true);
          // The second response reuses the kept head and frames its own tail.
          const again = compressor.encode(
            owner,
            () => {
              throw new Error("head compressed twice");
            },
            Buffer.from("x"),
            coding,
          );
          expect(decode(again, coding).equals(Buffer.concat([head, Buffer.from("x")]))).toBe(true);
        },
      ),
      { numRuns: 150, seed: 20261123 },
    );
  });

  it("keeps its heads within its byte bound", () => {
    const compressor = createCompressor(64 * 1024);
    for (let i = 0; i < 200; i++) {
      const head = Buffer.from(JSON.stringify({ i, values: Array.from({ length: 400 }, (_, n) => n * i) }));
      compressor.encode(`head ${i}`, () => head, Buffer.alloc(0), i % 2 ? "gzip" : "br");
    }
    expect(compressor.bytes).toBeLessThanOrEqual(64 * 1024);
  });

  it("counts what a small head's entry costs beyond its compressed bytes against the bound", () => {
    // A weather answer's head compresses to a few hundred bytes; its entry's objects weigh about as much again.
    const compressor = createCompressor(64 * 1024);
    const head = Buffer.from(JSON.stringify({ point: { lat: 59.91, lon: 10.75 }, values: [1, 2, 3] }).repeat(40));
    compressor.encode("a small head", () => head, Buffer.alloc(0), "gzip");
    expect(compressor.bytes).toBeGreaterThanOrEqual(512);
    for (let i = 0; i < 1000; i++) compressor.encode(`small head ${i}`, () => head, Buffer.alloc(0), "gzip");
    expect(compressor.bytes).toBeLessThanOrEqual(64 * 1024);
  });

  it("chooses brotli, then gzip, honouring q-values and refusals", () => {
    expect(chooseCoding(null)).toBeNull();
    expect(chooseCoding("gzip, deflate, br, zstd")).toBe("br");
    expect(chooseCoding("gzip")).toBe("gzip");
    expect(chooseCoding("br;q=0, gzip")).toBe("gzip");
    expect(chooseCoding("gzip;q=0.5, br;q=0.1")).toBe("gzip");
    expect(chooseCoding("identity")).toBeNull();
    expect(chooseCoding("deflate")).toBeNull();
    expect(chooseCoding("*")).toBe("br");
    expect(chooseCoding("*;q=0, identity")).toBeNull();
  });
});

describe("compressed answers on the real server", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ seedDataDir: await sampleDataDir() });
  });
  afterAll(() => service.close());

  const largeAnswers = [
    "/api/public/v1/economics/calendar?from=2026-01-01&to=2026-03-31&limit=200",
    "/api/v1/openapi.json",
  ];

  it.each(largeAnswers)("sends %s in brotli or gzip as asked, the same answer as uncompressed", async (path) => {
    const plain = await rawRequest(service.url + path, {});
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/);
    expect(plain.body.length).toBeGreaterThan(1024);
    const plainJson = JSON.parse(plain.body.toString());
    for (const [accept, coding] of [
      ["gzip, deflate, br", "br"],
      ["gzip", "gzip"],
      ["br;q=0, gzip;q=0.8", "gzip"],
    ] as const) {
      for (let round = 0; round < 2; round++) {
        const encoded = await rawRequest(service.url + path, { "accept-encoding": accept });
        expect(encoded.status).toBe(200);
        expect(encoded.headers["content-encoding"]).toBe(coding);
        expect(encoded.headers.vary).toMatch(/accept-encoding/);
        expect(encoded.headers.etag).toBe(plain.headers.etag);
        expect(Number(encoded.headers["content-length"])).toBe(encoded.body.length);
        expect(encoded.body.length).toBeLessThan(plain.body.length / 2);
        const json = JSON.parse(decode(encoded.body, coding).toString());
        if (json.meta) {
          expect(json.meta.requestId).toBe(encoded.headers["x-request-id"]);
          expect(json.meta.requestId).not.toBe(plainJson.meta.requestId);
          expect({ ...json, meta: { ...json.meta, requestId: "", generatedAt: "" } }).toEqual({
            ...plainJson,
            meta: { ...plainJson.meta, requestId: "", generatedAt: "" },
          });
        } else {
          expect(json).toEqual(plainJson);
        }
      }
    }
  });

  it("names the headers that choose a large answer's bytes in one Vary, in order, on its 304 too", async () => {
    for (const [path, vary] of [
      ["/api/v1/openapi.json", "origin, accept-encoding"],
      [largeAnswers[0]!, "origin, accept, accept-encoding"],
    ] as const) {
      const full = await rawRequest(service.url + path, { "accept-encoding": "br" });
      expect(full.headers.vary).toBe(vary);
      const notModified = await rawRequest(service.url + path, { "if-none-match": String(full.headers.etag) });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.vary).toBe(vary);
    }
  });

  it("leaves small answers, errors and not-modified answers uncompressed", async () => {
    const small = await rawRequest(`${service.url}/api/public/v1/health/live`, { "accept-encoding": "br, gzip" });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(small.body.toString()).data).toEqual({ status: "live" });
    const error = await rawRequest(`${service.url}/api/public/v1/economics/calendar?from=nonsense`, {
      "accept-encoding": "br, gzip",
    });
    expect(error.status).toBe(400);
    expect(error.headers["content-encoding"]).toBeUndefined();
    const first = await rawRequest(`${service.url}${largeAnswers[0]}`, { "accept-encoding": "gzip" });
    const notModified = await rawRequest(`${service.url}${largeAnswers[0]}`, {
      "accept-encoding": "gzip",
      "if-none-match": String(first.headers.etag),
    });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
  });

  it("answers HEAD with the headers of the compressed answer and no body", async () => {
    const head = await rawRequest(`${service.url}${largeAnswers[0]}`, { "accept-encoding": "gzip" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("gzip");
    expect(head.body.length).toBe(0);
  });

  it("is read by a standard HTTP client that asks for compression (undici's fetch)", async () => {
    const answer = await service.request(largeAnswers[0]!, { headers: { "accept-encoding": "br, gzip" } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-encoding")).toBe("br");
    expect(answer.body.meta.requestId).toBe(answer.headers.get("x-request-id"));
  });
});
