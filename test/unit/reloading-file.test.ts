import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createReloadingFile } from "../../server/files/reloading-file.ts";

const RECHECK_MS = 50;

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
  return { reader, value: createReloadingFile(path, read, () => "absent", { recheckAfterMs: RECHECK_MS }) };
}

describe("a published file that cannot be read", () => {
  // The periods follow performance.now(): held still, every call falls in one period whatever the machine's load.
  beforeEach(() => void vi.useFakeTimers({ toFake: ["performance"] }));
  afterEach(() => void vi.useRealTimers());

  it("fails every call, but is read again once per recheck period, not once per call", () => {
    const { reader, value } = watchedFile();
    for (let call = 0; call < 1_000; call++) expect(() => value()).toThrow("is damaged");
    expect(reader.reads).toBe(1);
    vi.advanceTimersByTime(RECHECK_MS);
    expect(() => value()).toThrow("is damaged");
    expect(reader.reads).toBe(2);
  });

  it("is read again in the next period even unchanged (its failure may have passed), and then served", () => {
    const { reader, value } = watchedFile();
    expect(() => value()).toThrow("is damaged");
    reader.failing = false;
    expect(() => value()).toThrow("is damaged");
    vi.advanceTimersByTime(RECHECK_MS);
    expect(value()).toBe("read");
    vi.advanceTimersByTime(RECHECK_MS);
    expect(value()).toBe("read");
    // Served from the read: an unchanged file that was read is not read again.
    expect(reader.reads).toBe(2);
  });
});
