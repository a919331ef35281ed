import { describe, expect, it } from "vitest";
import { createCompressor } from "../../server/http/compression.ts";
import { renderAnswer, responseBody } from "../../server/http/envelope.ts";
import { prepareAnswer } from "../../server/http/prepared-answer.ts";
import { SerialisedSection } from "../../server/http/serialised-section.ts";

const REQUEST_ID = "6f1c2b8e-3d4a-4f5b-9c6d-7e8f9a0b1c2d";
const AT = "2026-11-23T12:00:00.000Z";

/** Bodies are the same JSON whether a section is kept as text (small) or as bytes (large), with exact lengths. */
describe("serialised answers", () => {
  it("render the same JSON from text and from bytes, with the length they declare", () => {
    for (const rows of [3, 3_000]) {
      const data = { place: "Zürich – 東京", rows: Array.from({ length: rows }, (_, n) => ({ n, note: "€ and ü" })) };
      const answer = prepareAnswer({ data, meta: { cached: true } }, {});
      expect(typeof answer.data.content).toBe(rows === 3 ? "string" : "object");
      const headers: Record<string, string> = {};
      const body = responseBody(answer, REQUEST_ID, AT, new Headers(), createCompressor(), headers);
      expect(Buffer.byteLength(body.toString())).toBe(Number(headers["content-length"]));
      expect(JSON.parse(body.toString())).toEqual({
        data,
        meta: {
          requestId: REQUEST_ID,
          generatedAt: AT,
          cached: true,
          cacheAgeSeconds: 0,
          stale: false,
          degraded: false,
        },
      });
      expect(renderAnswer(answer, REQUEST_ID, AT).toString()).toBe(body.toString());
    }
  });

  it("count their length in UTF-8", () => {
    expect(new SerialisedSection('"Zürich"').byteLength).toBe(9);
    expect(new SerialisedSection('"東京"').byteLength).toBe(8);
    expect(new SerialisedSection('"ab"').byteLength).toBe(4);
  });

  it("keep a section over 1 KB as bytes of its own, never a slice of a shared slab a kept answer would hold whole", () => {
    const section = new SerialisedSection(JSON.stringify("x".repeat(1500)));
    expect(Buffer.isBuffer(section.content)).toBe(true);
    const bytes = section.content as Buffer;
    expect(bytes.byteLength).toBe(section.byteLength);
    expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
  });
});
