import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createReloadingFile } from "../../server/files/reloading-file.ts";

const RECHECK_MS = 50;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A file in a fresh folder, and a reader of it that counts its reads and fails while told to. */
function watchedFile() {
  const path = join(mkdtempSync(join(tmpdir(), "reloading-file-")), "published.json");
  writeFileSync(path, "{ damaged");
  const reader = { reads: 0, failing: true };
  const read = (file: string) => {
    reader.reads++;
    if (reader.failing) throw new Error(`${file} is damaged`);
    return "read";
  };
  return { path, reader, value: createReloadingFile(path, read, () => "absent", { recheckAfterMs: RECHECK_MS }) };
}

describe("a published file that cannot be read", () => {
  it("fails every call, but is read again once per recheck period, not once per call", () => {
    const { reader, value } = watchedFile();
    for (let call = 0; call < 1_000; call++) expect(() => value()).toThrow("is damaged");
    // A thousand calls take well under a period; they may straddle one boundary.
    expect(reader.reads).toBeLessThanOrEqual(2);
  });

  it("is read again in the next period even unchanged (its failure may have passed), and then served", async () => {
    const { reader, value } = watchedFile();
    expect(() => value()).toThrow("is damaged");
    reader.failing = false;
    await pause(RECHECK_MS * 2 + 10);
    expect(value()).toBe("read");
    const reads = reader.reads;
    await pause(RECHECK_MS * 2 + 10);
    expect(value()).toBe("read");
    // Served from the read: an unchanged file that was read is not read again.
    expect(reader.reads).toBe(reads);
  });
});
