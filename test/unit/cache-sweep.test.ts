import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createAnswersByKey, createKeptAnswers } from "../../server/http/kept-answers.ts";
import { prepareAnswer, type PreparedAnswer } from "../../server/http/respond.ts";
import { IDLE_ENTRY_MS, SWEEP_EVERY_MS } from "../../server/memory/cache-sweep.ts";
import { SegmentedLru } from "../../server/memory/segmented-lru.ts";
import { createRenderings } from "../../server/weather/renderings.ts";
import type { StoredPayload } from "../../server/weather/stored-payload.ts";

/** Time enough for the sweep's timer to have run a few times. */
const SWEEPS = 60_000;

describe("caches whose entries die unseen are swept", () => {
  let now = 0;
  beforeEach(() => {
    now = 0;
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it("renderings: an idle one is rendered again when asked, one in use is kept, and the timer stops once empty", () => {
    const renderings = createRenderings(1_000_000, () => now);
    const stored = { serial: 1 } as StoredPayload;
    let rendered = 0;
    const renderAs = (variant: string) =>
      renderings.render(
        stored,
        variant,
        () => variant,
        (text) => {
          rendered++;
          return { data: { text }, meta: {} };
        },
      );

    renderAs("in use");
    renderAs("idle");
    expect(rendered).toBe(2);
    now = IDLE_ENTRY_MS / 2;
    renderAs("in use");
    now = IDLE_ENTRY_MS + 1;
    vi.advanceTimersByTime(SWEEPS);
    expect(renderings.bytes).toBeGreaterThan(0);

    renderAs("in use");
    expect(rendered).toBe(2);
    renderAs("idle");
    expect(rendered).toBe(3);

    now += IDLE_ENTRY_MS + 1;
    vi.advanceTimersByTime(SWEEPS);
    expect(renderings.bytes).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("answers by key: an answer unused for a minute is gone, a used one stays", () => {
    const answers = createAnswersByKey(1_000_000, () => now);
    const answer: PreparedAnswer = prepareAnswer({ data: { a: 1 } }, {});
    answers.remember("used", answer);
    answers.remember("unused", answer);
    now = IDLE_ENTRY_MS / 2;
    expect(answers.find("used")).toBe(answer);
    now = IDLE_ENTRY_MS + 1;
    vi.advanceTimersByTime(SWEEPS);
    expect(answers.find("used")).toBe(answer);
    expect(answers.find("unused")).toBeUndefined();
  });

  it("kept answers: one a minute past its validity is swept away, one still valid stays", () => {
    const kept = createKeptAnswers(() => now, 1_000_000);
    const answer: PreparedAnswer = prepareAnswer({ data: { a: 1 } }, {});
    kept.keep("expired", [], { builtAt: 0, until: 1_000 }, answer);
    kept.keep("current", [], { builtAt: 0, until: 86_400_000 }, answer);
    const both = kept.bytes;
    now = 1_000 + IDLE_ENTRY_MS / 2;
    vi.advanceTimersByTime(SWEEPS);
    expect(kept.bytes).toBe(both);
    now = 1_000 + IDLE_ENTRY_MS;
    vi.advanceTimersByTime(SWEEPS);
    expect(kept.bytes).toBe(both / 2);
    expect(kept.find("current", [], now)).toBe(answer);
  });

  it("kept answers: one of a data generation since replaced is swept away however long its validity", () => {
    const kept = createKeptAnswers(() => now, 1_000_000);
    const answer: PreparedAnswer = prepareAnswer({ data: { a: 1 } }, {});
    const first = { index: 1 };
    let published = first;
    let asked = 0;
    const generationNow = () => (asked++, [published]);
    for (const key of ["page 1", "page 2"])
      kept.keep(key, [first], { builtAt: 0, until: Number.POSITIVE_INFINITY, generationNow }, answer);
    kept.keep("page 3", [], { builtAt: 0, until: Number.POSITIVE_INFINITY }, answer);
    const each = kept.bytes / 3;
    vi.advanceTimersByTime(SWEEP_EVERY_MS);
    // Both answers share the route's generation function, which may read files: asked once a sweep, not once an answer.
    expect(asked).toBe(1);
    vi.advanceTimersByTime(SWEEPS);
    expect(kept.bytes).toBe(3 * each);

    published = { index: 2 };
    vi.advanceTimersByTime(SWEEP_EVERY_MS);
    expect(kept.bytes).toBe(each);
    expect(kept.find("page 3", [], now)).toBe(answer);
  });
});

describe("a sweep that cannot tell what is dead", () => {
  afterEach(() => vi.useRealTimers());

  it("drops nothing and keeps its timer, rather than throw from it", () => {
    vi.useFakeTimers();
    const kept = createKeptAnswers(() => 0, 1_000_000);
    const unreadable = () => {
      throw new Error("the published file cannot be read");
    };
    kept.keep(
      "page",
      [],
      { builtAt: 0, until: Number.POSITIVE_INFINITY, generationNow: unreadable },
      prepareAnswer({ data: { a: 1 } }, {}),
    );
    const bytes = kept.bytes;
    vi.advanceTimersByTime(SWEEP_EVERY_MS);
    expect(kept.bytes).toBe(bytes);
    expect(vi.getTimerCount()).toBe(1);
  });
});

describe("segmented LRU: deleting the dead", () => {
  const sized = (maxSize: number) =>
    new SegmentedLru<string, string>({ maxSize, sizeCalculation: (value) => value.length });

  it("deletes matching entries from both segments and keeps no ghost of them", () => {
    const cache = sized(64_000);
    cache.set("protected dead", "x".repeat(10));
    cache.get("protected dead");
    cache.set("protected alive", "a".repeat(10));
    cache.get("protected alive");
    cache.set("probation dead", "x".repeat(10));
    cache.deleteWhere((value) => value.startsWith("x"));
    expect(cache.has("protected dead")).toBe(false);
    expect(cache.has("probation dead")).toBe(false);
    expect(cache.calculatedSize).toBe(10);
    // A key remembered as a ghost would go straight to the protected segment when set again and outlast this stream.
    cache.set("probation dead", "x".repeat(10));
    for (let i = 0; i < 1_000; i++) cache.set(`once${i}`, "y".repeat(10));
    expect(cache.has("probation dead")).toBe(false);
    expect(cache.get("protected alive")).toBe("a".repeat(10));
  });
});
