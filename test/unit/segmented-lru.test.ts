import { describe, expect, it } from "vitest";
import { SegmentedLru } from "../../server/memory/segmented-lru.ts";

const sized = (maxSize: number) =>
  new SegmentedLru<string, string>({ maxSize, sizeCalculation: (value) => value.length });

describe("segmented LRU cache", () => {
  it("keeps what was asked for twice while a stream of keys asked once passes through", () => {
    const cache = sized(800); // probation 25, protected 775
    cache.set("hot", "x".repeat(10));
    expect(cache.get("hot")).toBe("x".repeat(10));
    for (let i = 0; i < 1_000; i++) cache.set(`once${i}`, "y".repeat(10));
    expect(cache.get("hot")).toBe("x".repeat(10));
    expect(cache.get("once0")).toBeUndefined();
    expect(cache.get("once999")).toBe("y".repeat(10));
    expect(cache.calculatedSize).toBeLessThanOrEqual(800);
  });

  it("holds keys asked once within probation's share of the bound", () => {
    const cache = sized(800);
    for (let i = 0; i < 1_000; i++) cache.set(`once${i}`, "y".repeat(10));
    expect(cache.calculatedSize).toBeLessThanOrEqual(800 / 32);
  });

  it("protects at once a key set again soon after a stream of new keys pushed it out of probation", () => {
    const cache = sized(64_000); // probation 2,000: 200 entries; its ghosts 1,000 bytes: about 14 keys
    cache.set("polled", "x".repeat(10));
    for (let i = 0; i < 205; i++) cache.set(`once${i}`, "y".repeat(10));
    expect(cache.has("polled")).toBe(false);
    // The client asks again: the answer is rebuilt and set, and now outlasts any number of keys asked once.
    cache.set("polled", "x".repeat(10));
    for (let i = 0; i < 10_000; i++) cache.set(`later${i}`, "y".repeat(10));
    expect(cache.get("polled")).toBe("x".repeat(10));
  });

  it("forgets a pushed-out key once enough later keys have left probation after it", () => {
    const cache = sized(64_000);
    cache.set("polled", "x".repeat(10));
    for (let i = 0; i < 1_000; i++) cache.set(`once${i}`, "y".repeat(10));
    cache.set("polled", "x".repeat(10));
    for (let i = 0; i < 1_000; i++) cache.set(`later${i}`, "y".repeat(10));
    expect(cache.has("polled")).toBe(false);
  });

  it("replaces a protected entry in place, and keeps one larger than probation's share", () => {
    const cache = sized(800);
    cache.set("hot", "a");
    cache.get("hot");
    cache.set("hot", "b");
    for (let i = 0; i < 1_000; i++) cache.set(`once${i}`, "y".repeat(10));
    expect(cache.get("hot")).toBe("b");
    cache.set("large", "z".repeat(500));
    expect(cache.has("large")).toBe(true);
    for (let i = 0; i < 1_000; i++) cache.set(`again${i}`, "y".repeat(10));
    expect(cache.get("large")).toBe("z".repeat(500));
  });

  it("lets a key be looked at without promoting it", () => {
    const cache = sized(800);
    cache.set("looked-at", "x".repeat(10));
    expect(cache.peek("looked-at")).toBe("x".repeat(10));
    for (let i = 0; i < 1_000; i++) cache.set(`once${i}`, "y".repeat(10));
    expect(cache.peek("looked-at")).toBeUndefined();
  });

  it("forgets a deleted key in either segment", () => {
    const cache = sized(800);
    cache.set("a", "1");
    cache.set("b", "2");
    cache.get("b");
    cache.delete("a");
    cache.delete("b");
    expect([cache.has("a"), cache.has("b"), cache.calculatedSize]).toEqual([false, false, 0]);
  });
});
