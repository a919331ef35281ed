import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { createCompressor } from "../../server/http/compression.ts";
import { SerialisedSection } from "../../server/http/serialised-section.ts";

/**
 * The compressed-head cache (SERVICE_COMPRESSED_CACHE_MB) is sized by compressed bytes. Were it keyed by the
 * answer's `SerialisedSection` object (as in bbdf8da), every answer whose head was compressed would stay in memory,
 * uncompressed, as long as its compressed form: answers built per request (the metrics route's scrape, a credentialed
 * answer that is never kept) compress well, so the bound would let many times that much data be held. Keyed by the
 * data's ETag since a0c5c12; this stays as the regression test.
 */

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

describe("the compressed-head cache's memory bound", () => {
  it("does not hold the uncompressed answers of heads it has compressed beyond its byte bound", async () => {
    const bound = 256 * 1024;
    const compressor = createCompressor(bound);
    const headBytes = 200 * 1024;
    const owners: WeakRef<SerialisedSection>[] = [];
    // 400 distinct answers of 200 KB each, as 400 distinct scrapes or unkept answers would be: about 80 MB in all.
    for (let i = 0; i < 400; i++) {
      const data = new SerialisedSection(
        JSON.stringify({
          answer: i,
          rows: Array.from({ length: 4000 }, (_, n) => ({ n, label: "same text in every row" })),
        }).padEnd(headBytes, " "),
      );
      compressor.encode(`bare ${data.etag}`, () => data.bytes(), Buffer.alloc(0), i % 2 ? "gzip" : "br");
      owners.push(new WeakRef(data));
    }
    // A WeakRef keeps its target until the job that made it ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    const retainedBytes = owners.reduce((sum, owner) => sum + (owner.deref()?.byteLength ?? 0), 0);
    expect(compressor.bytes).toBeLessThanOrEqual(bound);
    // What the cache keeps alive should be of the order of its bound, not tens of times it.
    expect(retainedBytes).toBeLessThanOrEqual(4 * bound);
  });
});
