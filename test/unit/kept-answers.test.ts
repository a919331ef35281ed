import { describe, expect, it } from "vitest";
import { createKeptAnswers } from "../../server/http/kept-answers.ts";
import { prepareAnswer } from "../../server/http/respond.ts";

const answer = prepareAnswer({ data: { list: [1, 2, 3] } }, {});

describe("kept answers", () => {
  it("serve an answer only within its data generation and its clock validity, never to a clock stepped back", () => {
    const kept = createKeptAnswers(() => 1_000);
    const index = {};
    kept.keep("q", [index], { builtAt: 1_000, until: 5_000 }, answer);
    expect(kept.find("q", [index], 1_000)?.data).toBe(answer.data);
    expect(kept.find("q", [index], 4_999)?.data).toBe(answer.data);
    expect(kept.find("q", [{}], 2_000)).toBeUndefined(); // a new index
    kept.keep("q", [index], { builtAt: 1_000, until: 5_000 }, answer);
    expect(kept.find("q", [index], 999)).toBeUndefined(); // the clock stepped back before it was built
    kept.keep("q", [index], { builtAt: 1_000, until: 5_000 }, answer);
    expect(kept.find("q", [index], 5_000)).toBeUndefined(); // an entry's state changes at 5 000
  });

  it("keep nothing at a zero bound, and hold at most their byte bound", () => {
    const none = createKeptAnswers(() => 1, 0);
    none.keep("q", [], { builtAt: 0, until: Infinity }, answer);
    expect(none.find("q", [], 1)).toBeUndefined();
    const small = createKeptAnswers(() => 1, 64 * 1024);
    for (let i = 0; i < 1_000; i++) small.keep(`q${i}`, [], { builtAt: 0, until: Infinity }, answer);
    expect(small.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(small.find("q999", [], 1)?.data).toBe(answer.data);
    expect(small.find("q0", [], 1)).toBeUndefined();
  });
});
