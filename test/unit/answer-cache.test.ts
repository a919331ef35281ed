import { describe, expect, it } from "vitest";
import { createAnswerCache } from "../../server/http/answer-cache.ts";
import { prepareAnswer } from "../../server/http/prepared-answer.ts";

const answer = prepareAnswer({ data: { list: [1, 2, 3] } }, {});
/** The route match an answer was built with: the cache hands it back for the URL while the answer is held. */
const match = { routes: [], params: { slug: "a" } };

describe("the answer cache", () => {
  it("serves an answer only while what it was built from is current and within its clock validity, never to a clock stepped back", () => {
    const answers = createAnswerCache();
    const index = {};
    let published = index;
    const stillCurrent = () => published === index;
    answers.keep("q", { match, builtAt: 1_000, validUntil: 5_000, stillCurrent }, answer);
    expect(answers.find("q", 1_000)?.data).toBe(answer.data);
    expect(answers.matchOf("q")).toBe(match);
    expect(answers.find("q", 4_999)?.data).toBe(answer.data);
    published = {}; // a new index
    expect(answers.find("q", 2_000)).toBeUndefined();
    expect(answers.holds("q")).toBe(false); // and the answer of the old one is gone
    expect(answers.matchOf("q")).toBeUndefined(); // so the URL is routed again
    published = index;
    answers.keep("q", { match, builtAt: 1_000, validUntil: 5_000, stillCurrent }, answer);
    expect(answers.find("q", 999)).toBeUndefined(); // the clock stepped back before it was built
    expect(answers.find("q", 5_000)).toBeUndefined(); // the answer changes at 5 000
  });

  it("asks a route's own check at every reuse", () => {
    const answers = createAnswerCache();
    let current = true;
    answers.keep("q", { match, builtAt: 1_000, validUntil: 2_000, stillCurrent: () => current }, answer);
    expect(answers.find("q", 1_500)?.data).toBe(answer.data);
    current = false;
    expect(answers.find("q", 1_500)).toBeUndefined();
  });

  it("drops an expired answer by itself, asked or not, whatever the app's clock reads", async () => {
    const answers = createAnswerCache();
    answers.keep("q", { match, builtAt: 1_000, validUntil: 1_020 }, answer);
    expect(answers.holds("q")).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(answers.holds("q")).toBe(false);
    expect(answers.bytes).toBe(0);
  });

  it("keeps an answer valid for longer than a timer can wait without one, and judges it by its validity", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const year = 365 * 24 * 3_600_000;
      const answers = createAnswerCache();
      answers.keep("q", { match, builtAt: 1_000, validUntil: 1_000 + year }, answer);
      answers.keep("r", { match, builtAt: 1_000, validUntil: 1_000 + 2 ** 31 - 1 }, answer);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(warnings.map((warning) => warning.name)).not.toContain("TimeoutOverflowWarning");
      expect(answers.find("q", 1_000 + year - 1)?.data).toBe(answer.data);
      expect(answers.find("q", 1_000 + year)).toBeUndefined();
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("keeps nothing at a zero bound, and holds at most its byte bound", () => {
    const none = createAnswerCache(0);
    none.keep("q", { match, builtAt: 0, validUntil: Infinity }, answer);
    expect(none.find("q", 1)).toBeUndefined();
    const small = createAnswerCache(64 * 1024);
    for (let i = 0; i < 1_000; i++) small.keep(`q${i}`, { match, builtAt: 0, validUntil: Infinity }, answer);
    expect(small.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(small.find("q999", 1)?.data).toBe(answer.data);
    expect(small.find("q0", 1)).toBeUndefined();
  });
});
